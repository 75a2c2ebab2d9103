import Foundation
import TestSupport
import Testing

/// What the operator reads, checked against what the code and the package do (issue 48 points
/// 11 and 12): certbot's renewal reloads nginx in every document that gets the certificate; a
/// host by hand is given the packages the programs load, not the test stack; the settings page
/// gives the table's figures; the shipped files cite sections that exist; each restart of the
/// responder says how without systemd too; a check of the sweep's log names the journal too.
@Suite("What the operator reads")
struct OperatorTextsTests {
    /// The documents an operator follows to deploy: README, docs/, README.Debian.
    static func operatorDocuments() throws -> [String] {
        try DocumentationTests.documents() + ["debian/liveactivity.README.Debian"]
    }

    /// Every certbot line gives the same `--deploy-hook`, a reload of nginx: certbot keeps it and
    /// runs it after each renewal (PackageLifeTests runs it against nginx as the docs give it).
    @Test func everyCertbotLineReloadsNginxAfterARenewal() throws {
        var hooks: [String: String] = [:]
        for document in ["README.md", "docs/INSTALL.md", "debian/liveactivity.README.Debian"] {
            let lines = try Documents.text(document).split(separator: "\n").filter { $0.contains("certbot certonly") }
            #expect(!lines.isEmpty, "\(document) gives no certbot line")
            for line in lines {
                let hook = line.firstMatch(of: /--deploy-hook '([^']+)'/).map { String($0.output.1) }
                #expect(hook != nil, "\(document)'s certbot line gives no --deploy-hook: \(line)")
                if let hook { hooks["\(document): \(line)"] = hook }
            }
        }
        #expect(Set(hooks.values).count == 1, "the documents give different deploy hooks: \(hooks)")
        for hook in Set(hooks.values) {
            #expect(hook.contains("nginx") && hook.contains("reload"), "the deploy hook '\(hook)' reloads no nginx")
        }
    }

    /// A host by hand installs what the programs load (the package's Depends: the C libraries'
    /// packages, spawn-fcgi) and nginx; `scripts/install-deps` alone, the test stack (PostgreSQL,
    /// chromium, lintian), is for a build host only as `--build-only`. The static build still
    /// loads those libraries: it is not called self-contained.
    @Test func aHostByHandGetsTheRuntimePackagesAndNoTestTool() throws {
        let install = try Documents.text("docs/INSTALL.md")
        for match in install.matches(of: /scripts\/install-deps( --[a-z-]+)?/) {
            #expect(match.output.1 == " --build-only", "docs/INSTALL.md runs '\(match.output.0)': the whole test stack")
        }
        #expect(!install.contains("self-contained"), "docs/INSTALL.md calls a build self-contained")
        let byHand = try Documents.section("## By hand", in: "docs/INSTALL.md")
        let line = try #require(
            byHand.split(separator: "\n").compactMap { $0.firstMatch(of: /apt install ([a-z0-9 .+-]+)/)?.output.1 }
                .first { $0.contains("spawn-fcgi") }, "docs/INSTALL.md's way by hand installs no runtime packages")
        let named = Set(line.split(separator: " ").map(String.init))
        let control = try Documents.text("debian/control")
        let depends = try #require(control.firstMatch(of: /\nDepends:((?:.|\n )*)/)?.output.1, "no Depends")
        let literal = depends.split(separator: ",").compactMap { $0.split(whereSeparator: \.isWhitespace).first }
            .map(String.init).filter { !$0.hasPrefix("$") && $0 != "adduser" }
        let needed = Set(PackageHost.libraryPackages + literal + ["nginx"])
        #expect(named.isSuperset(of: needed), "docs/INSTALL.md's runtime packages lack \(needed.subtracting(named).sorted())")
    }

    /// docs/CONFIGURATION.md's table: each setting's meaning, by name.
    static func tableMeanings() throws -> [String: String] {
        var meanings: [String: String] = [:]
        for line in try Documents.section("## The settings", in: "docs/CONFIGURATION.md").split(separator: "\n")
        where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().map(String.init)
            guard cells.count > 1 else { continue }
            for name in cells[0].matches(of: /`([A-Z_]+)`/) { meanings[String(name.output.1)] = cells[1] }
        }
        return meanings
    }

    /// liveactivity.conf(5)'s entries (`.TP`, `.B NAME`, the text up to the next entry), by name,
    /// without the `Default:` line, roff's `\-` undone.
    static func manPageEntries() throws -> [String: String] {
        let lines = try Documents.text("debian/man/liveactivity.conf.5").replacingOccurrences(of: "\\-", with: "-")
            .split(separator: "\n", omittingEmptySubsequences: false)
        var entries: [String: String] = [:]
        var index = 0
        while index < lines.count {
            guard lines[index] == ".TP", index + 1 < lines.count else {
                index += 1
                continue
            }
            let names = lines[index + 1].matches(of: /((?:LIVEACTIVITY|APNS)_[A-Z_]+)/).map { String($0.output.1) }
            var body: [Substring] = []
            index += 2
            while index < lines.count, !lines[index].hasPrefix(".TP"), !lines[index].hasPrefix(".SH"),
                !lines[index].hasPrefix(".PP")
            {
                if !lines[index].hasPrefix("Default:") { body.append(lines[index]) }
                index += 1
            }
            for name in names { entries[name] = body.joined(separator: " ") }
        }
        return entries
    }

    /// Every figure liveactivity.conf(5) gives for a setting (a bound, a size) is one
    /// docs/CONFIGURATION.md's table gives for it: the page once said 21 kB per push in flight,
    /// where the table and the code say about 12 kB.
    @Test func theSettingsPageGivesTheTablesFigures() throws {
        let meanings = try Self.tableMeanings()
        let entries = try Self.manPageEntries()
        #expect(entries.count >= 15, "liveactivity.conf(5) has \(entries.count) entries")
        for (name, text) in entries.sorted(by: { $0.key < $1.key }) {
            guard let meaning = meanings[name] else { continue }
            let figures = Set(text.matches(of: /\d+(?:\.\d+)?/).map { String($0.output) })
            let tables = Set(meaning.matches(of: /\d+(?:\.\d+)?/).map { String($0.output) })
            #expect(
                figures.isSubset(of: tables),
                "liveactivity.conf(5) gives \(name) \(figures.subtracting(tables).sorted()), which docs/CONFIGURATION.md does not: \(text)"
            )
        }
    }

    /// On PostgreSQL the sweep exits 2 without `LIVEACTIVITY_SWEEP_DIR` (its lock has no
    /// database beside it): the page says so where the setting is described.
    @Test func theSettingsPageSaysTheSweepFolderIsRequiredOnPostgreSQL() throws {
        let entry = try #require(try Self.manPageEntries()["LIVEACTIVITY_SWEEP_DIR"], "no LIVEACTIVITY_SWEEP_DIR entry")
        #expect(entry.contains("PostgreSQL") && entry.lowercased().contains("required"), "liveactivity.conf(5): \(entry)")
        let sweep = try Documents.text("Sources/liveactivity-sweep/SweepCommand.swift")
        #expect(sweep.contains("LIVEACTIVITY_SWEEP_DIR is not set: on PostgreSQL"), "the sweep no longer requires it")
    }

    /// The files the package and the hand-made deployment ship (nginx/, cron/, systemd/,
    /// debian/) cite documents' sections by name (`README, "..."`, `docs/INSTALL.md, "..."`):
    /// each is a heading, or a paragraph's bold lead, of that document.
    @Test func theShippedFilesCiteSectionsThatExist() throws {
        let files = FileManager.default
        var paths: [String] = []
        for folder in ["nginx", "cron", "systemd", "debian"] {
            let entries = files.enumerator(atPath: packageRoot + "/" + folder)?.compactMap { $0 as? String } ?? []
            paths += entries.filter { !$0.hasPrefix("changelog") && !$0.hasSuffix(".template") }.map { folder + "/" + $0 }
        }
        var cited = 0
        for path in paths.sorted() {
            var isFolder: ObjCBool = false
            guard files.fileExists(atPath: packageRoot + "/" + path, isDirectory: &isFolder), !isFolder.boolValue,
                let text = try? Documents.text(path)
            else { continue }
            // A citation may run over a comment's line break.
            let joined = text.replacing(/\n[#\s]*/, with: " ").replacingOccurrences(of: "\\\"", with: "\"")
            for match in joined.matches(
                of: /(README|[A-Z][A-Z-]*\.md)(?:\.gz)?(?:'s)?,?:?(?: in \/usr\/share\/doc\/liveactivity,)? "([^"]+)"/)
            {
                cited += 1
                let name = String(match.output.1)
                let document = name == "README" ? "README.md" : "docs/" + name
                let section = String(match.output.2)
                let titles = try Documents.text(document).split(separator: "\n").compactMap { line -> String? in
                    if line.hasPrefix("#") { return line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces) }
                    return line.firstMatch(of: /^(?:- |\d+\. )?\*\*([^*]+?)\.?\*\*/).map { String($0.output.1) }
                }
                #expect(titles.contains(section), "\(path) cites \(name), \"\(section)\", which \(document) does not have")
            }
        }
        #expect(cited >= 4, "only \(cited) citations found")
    }

    /// Wherever a document tells the operator to restart the responder with systemd, it says how
    /// where cron started it too (the supervisor's SIGHUP, or the `@reboot` line again).
    @Test func everyRestartOfTheResponderSaysHowWithoutSystemdToo() throws {
        var found = 0
        for document in try Self.operatorDocuments() + ["debian/man/liveactivity.conf.5"] {
            let text = try Documents.text(document).replacingOccurrences(of: "\\-", with: "-")
                .replacing(/\s+/, with: " ")
            for match in text.ranges(of: "systemctl restart liveactivity-fcgi") {
                found += 1
                let from = text.index(match.lowerBound, offsetBy: -300, limitedBy: text.startIndex) ?? text.startIndex
                let to = text.index(match.upperBound, offsetBy: 300, limitedBy: text.endIndex) ?? text.endIndex
                let around = text[from..<to]
                #expect(
                    around.contains("kill -HUP $(cat /run/liveactivity-fcgi.pid)") || around.contains("@reboot"),
                    "\(document) restarts the responder with systemd only: …\(text[match.lowerBound..<to])")
            }
        }
        #expect(found >= 4, "only \(found) restarts found")
    }

    /// A command that reads the sweep's log file (cron's) sits in a paragraph that also gives the
    /// journal, where the sweep's lines are with systemd.
    @Test func aCheckOfTheSweepsLogFileNamesTheJournalToo() throws {
        var found = 0
        for document in try Self.operatorDocuments() {
            for paragraph in try Documents.text(document).components(separatedBy: "\n\n") {
                let reads = paragraph.matches(of: /`((?:tail|less|grep|cat|head)[^`]*sweep\.log[^`]*)`/).map {
                    String($0.output.1)
                }
                for command in reads {
                    found += 1
                    #expect(
                        paragraph.contains("journalctl -u liveactivity-sweep"),
                        "\(document) checks `\(command)` and not the journal, where systemd's sweep writes")
                }
            }
        }
        #expect(found >= 1, "no document reads the sweep's log")
    }
}
