import Foundation
import TestSupport
import Testing

/// The documents as a reader meets them (issue 33): the README is the front door, at most 250
/// lines, and its package steps are the blocks docs/INSTALL.md's tests run; every link between
/// the documents reaches a file, and a heading where it names one.
@Suite("Documentation")
struct DocumentationTests {
    /// README.md and every Markdown file of docs/, relative to the package root.
    static func documents() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/docs").filter { $0.hasSuffix(".md") }
        return ["README.md"] + docs.sorted().map { "docs/" + $0 }
    }

    /// The lines of `text` outside fenced blocks.
    static func prose(_ text: String) -> [Substring] {
        var fenced = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                fenced.toggle()
                return false
            }
            return !fenced
        }
    }

    /// The anchors of a document's headings, as GitHub makes them: lower case, punctuation
    /// dropped but `-` and `_`, each space a `-`.
    static func anchors(_ text: String) -> Set<String> {
        Set(
            prose(text).filter { $0.hasPrefix("#") }.map { line in
                let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
                return String(title.filter { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" || $0 == "_" })
                    .replacingOccurrences(of: " ", with: "-")
            })
    }

    @Test func theReadmeIsAFrontDoorOfAtMost250Lines() throws {
        let lines = try Documents.text("README.md").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 251, "README.md has \(lines.count - 1) lines")
    }

    /// Every relative link of every document names a file that exists and, with `#anchor`, a
    /// heading of it; inline code and fenced blocks are not links.
    @Test func everyLinkBetweenTheDocumentsResolves() throws {
        var checked = 0
        for document in try Self.documents() {
            let folder = URL(fileURLWithPath: packageRoot + "/" + document).deletingLastPathComponent()
            for line in Self.prose(try Documents.text(document)) {
                let text = line.replacing(/`[^`]*`/, with: "")
                for match in text.matches(of: /\]\(([^)\s]+)\)/) {
                    let target = String(match.output.1)
                    if target.hasPrefix("http://") || target.hasPrefix("https://") || target.hasPrefix("mailto:") { continue }
                    let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                    let path = parts[0].isEmpty ? document : String(parts[0])
                    let file =
                        parts[0].isEmpty ? packageRoot + "/" + document : folder.appendingPathComponent(path).standardized.path
                    checked += 1
                    guard FileManager.default.fileExists(atPath: file) else {
                        Issue.record("\(document): the link \(target) names \(path), which does not exist")
                        continue
                    }
                    if parts.count == 2, file.hasSuffix(".md") {
                        let anchors = Self.anchors(try String(contentsOfFile: file, encoding: .utf8))
                        #expect(anchors.contains(String(parts[1])), "\(document): the link \(target) names no heading of \(path)")
                    }
                }
            }
        }
        #expect(checked > 30, "only \(checked) links checked")
    }

    /// No document sends its reader to the product specification, which is not in the repository:
    /// they cite each other's sections.
    @Test func noDocumentCitesTheSpecification() throws {
        for document in try Self.documents() {
            let cites = Self.prose(try Documents.text(document)).filter { $0.contains("SPEC") }
            #expect(cites.isEmpty, "\(document) cites SPEC: \(cites.prefix(3))")
        }
        for page in ["liveactivity-fcgi.8", "liveactivity-sweep.8", "liveactivity.conf.5"] {
            #expect(try !Documents.text("debian/man/" + page).contains("SPEC"), "\(page) cites SPEC")
        }
    }

    /// Who runs each document's command blocks (`sh`, `sql`, `nginx`, `swift`), by document,
    /// language and heading: a test suite (its file under Tests/), or why none can. A new block
    /// fails until it is given one, so no document gives a command that nothing runs unnoticed.
    static let runners: [String: String] = [
        "README.md sh Two commands": "RunLocalTests (scripts/run-local --once); .ci/run runs scripts/test",
        "README.md sh Install the package": "DocumentationTests (docs/INSTALL.md's blocks, which PackageLifeTests runs)",
        "README.md sh A second app": "SeveralAppsEndToEndTests",
        "README.md nginx A second app": "SeveralAppsEndToEndTests",
        "docs/API.md sh The routes": "APIDocumentTests",
        "docs/API.md swift The app's side": "AppGuideTests",
        "docs/APP.md swift 4. When to call what": "AppGuideTests (against Tests/Fixtures/AppleStandIns)",
        "docs/APP.md sh 6. Without the library": "AppGuideTests",
        "docs/APP.md swift 6. Without the library": "AppGuideTests",
        "docs/APP.md swift 7. The activity does not update": "AppGuideTests",
        "docs/APP.md sh 8. \"It did not update\": one device's story, on the host": "AppGuideTests",
        "docs/DEVELOPMENT.md sh The tests": "none here: .ci/run runs scripts/test, which runs these suites",
        "docs/INSTALL.md sh With the Debian package": "PackageLifeTests",
        "docs/INSTALL.md sh By hand": "OperatorPathTests",
        "docs/OPERATIONS.md sh The status page": "none: an SSH tunnel from a laptop to a host with a public name",
        "docs/PERFORMANCE.md sh The benchmarks": "none: scripts/bench is the benchmark itself (25 minutes)",
        "docs/POSTGRESQL.md sh The URI": "none: settings lines, not commands",
        "docs/POSTGRESQL.md sql Two roles": "PostgresRolesTests",
        "docs/SEVERAL-HOSTS.md sh What each host runs": "ReadmeSeveralHostsTests",
        "docs/SEVERAL-HOSTS.md nginx Spreading the API": "BalancerTests",
    ]

    @Test func everyCommandBlockHasATestThatRunsItOrAReasonWhyNot() throws {
        var seen = Set<String>()
        for document in try Self.documents() {
            for block in try MarkdownBlock.all(in: document) where ["sh", "sql", "nginx", "swift"].contains(block.language) {
                let key = "\(document) \(block.language) \(block.heading)"
                seen.insert(key)
                #expect(
                    Self.runners[key] != nil, "no test runs the \(block.language) block under '\(block.heading)' of \(document)")
            }
        }
        #expect(
            Set(Self.runners.keys).subtracting(seen).isEmpty,
            "no such block: \(Set(Self.runners.keys).subtracting(seen).sorted())")
        // A runner that is a suite names a file of Tests/ that exists.
        let files = FileManager.default.enumerator(atPath: packageRoot + "/Tests")?.compactMap { $0 as? String } ?? []
        for runner in Set(Self.runners.values) {
            guard let suite = runner.split(separator: " ").first, suite.hasSuffix("Tests") else { continue }
            #expect(files.contains { $0.hasSuffix("/\(suite).swift") }, "\(runner): no Tests/.../\(suite).swift")
        }
    }

    /// README's package steps are docs/INSTALL.md's, block for block, so that the package test
    /// (`PackageLifeTests`, which runs docs/INSTALL.md's) runs what README says.
    @Test func theReadmesPackageStepsAreTheOnesTheInstallTestsRun() throws {
        let readme = try MarkdownBlock.all("sh", in: "README.md").filter { $0.heading == "Install the package" }
        let install = try MarkdownBlock.all("sh", in: "docs/INSTALL.md").filter { $0.heading == "With the Debian package" }
        #expect(readme.count >= 6, "README's install section holds \(readme.count) blocks")
        for block in readme {
            #expect(install.contains { $0.text == block.text }, "README's block is not docs/INSTALL.md's: \(block.text)")
        }
        let steps = install.map(\.text)
        let order = readme.compactMap { block in steps.firstIndex(of: block.text) }
        #expect(order == order.sorted(), "README gives docs/INSTALL.md's steps in another order")
    }

    /// README.Debian's commands (its lines indented by four spaces) are lines of docs/INSTALL.md's
    /// package section, which the package test runs.
    @Test func readmeDebiansCommandsAreTheOnesTheInstallTestsRun() throws {
        let section = try Documents.section("## With the Debian package", in: "docs/INSTALL.md")
        let lines = Set(section.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let commands = try Documents.text("debian/liveactivity.README.Debian").split(separator: "\n")
            .filter { $0.hasPrefix("    ") }.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(commands.count >= 8, "README.Debian shows \(commands.count) command lines")
        for command in commands {
            #expect(
                lines.contains(command) || section.contains("`\(command)`"),
                "README.Debian's line is not in docs/INSTALL.md's package section: \(command)")
        }
    }
}
