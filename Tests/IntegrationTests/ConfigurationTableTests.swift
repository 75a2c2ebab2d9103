import Foundation
import TestSupport
import Testing

/// docs/CONFIGURATION.md's table says which program reads each setting (each program reads the
/// names it uses; issue 18 point 12) and what a change needs. The responder, run once as CGI, is
/// held to it: a malformed value of a setting "both" read stops it with exit 2 naming it, and one
/// only the sweep reads is ignored. The shipped settings file and liveactivity.conf(5) name the
/// same settings as the table (issue 33).
@Suite("Configuration table")
struct ConfigurationTableTests {
    static let document = "docs/CONFIGURATION.md"

    /// (names, read by, after a change) per row of the table under "## The settings".
    static func rows() throws -> [(names: [String], defaultValue: String, readBy: String, afterChange: String)] {
        let lines = try Documents.section("## The settings", in: document).split(separator: "\n")
        guard let header = lines.first(where: { $0.hasPrefix("| name |") }) else { throw SocketError("no table") }
        let columns = header.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let readByColumn = columns.firstIndex(of: "read by") else { throw SocketError("no 'read by' column: \(header)") }
        guard let afterColumn = columns.firstIndex(of: "after a change") else {
            throw SocketError("no 'after a change' column: \(header)")
        }
        guard let defaultColumn = columns.firstIndex(of: "default") else { throw SocketError("no 'default' column: \(header)") }
        return lines.filter { $0.hasPrefix("| `") }.map { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            // Empty pieces kept, so the names are the odd ones also in a cell of several.
            let names = cells[0].split(separator: "`", omittingEmptySubsequences: false).enumerated().filter {
                $0.offset % 2 == 1
            }.map { String($0.element) }
            func cell(_ column: Int) -> String { column < cells.count ? cells[column] : "" }
            return (names, cell(defaultColumn), cell(readByColumn), cell(afterColumn))
        }
    }

    /// Every setting the table names (the test-only clock offset aside).
    static func settingNames() throws -> Set<String> {
        Set(try rows().flatMap(\.names)).subtracting(["LIVEACTIVITY_TEST_CLOCK_OFFSET"])
    }

    func responderOnce(_ name: String, _ value: String) throws -> CommandResult {
        let folder = TemporaryDirectory("table")
        return try runCommand(
            product("liveactivity-fcgi"), [],
            environment: [
                "GATEWAY_INTERFACE": "CGI/1.1", "SERVER_PROTOCOL": "HTTP/1.1", "REQUEST_METHOD": "GET",
                "SCRIPT_NAME": "/wakeup/health", "LIVEACTIVITY_DB": folder.file("db.sqlite"), "PATH": "/usr/bin:/bin",
                name: value,
            ])
    }

    @Test func everyRowSaysWhichProgramReadsIt() throws {
        let rows = try Self.rows()
        #expect(rows.count >= 15)
        for row in rows { #expect(["both", "sweep", "responder"].contains(row.readBy), "\(row.names): '\(row.readBy)'") }
    }

    /// The responder reads its settings once, at its start; the sweep at every run. A row the
    /// responder reads says to restart it, one only the sweep reads says nothing is needed.
    @Test func everyRowSaysWhatAChangeNeeds() throws {
        for row in try Self.rows() where !row.names.contains("LIVEACTIVITY_TEST_CLOCK_OFFSET") {
            let restarts = row.afterChange.hasPrefix("restart the responder")
            #expect(restarts == (row.readBy != "sweep"), "\(row.names), read by \(row.readBy): '\(row.afterChange)'")
        }
    }

    /// The shipped settings file (debian/conf/liveactivity.conf) has a line, set or commented
    /// out, for each setting of the table and for no other.
    @Test func theShippedSettingsFileNamesTheSameSettings() throws {
        let text = try Documents.text("debian/conf/liveactivity.conf")
        let named = Set(
            text.split(separator: "\n").compactMap { line in
                line.firstMatch(of: /^#?((?:LIVEACTIVITY|APNS)_[A-Z_]+)=/).map { String($0.output.1) }
            })
        let table = try Self.settingNames()
        #expect(
            named == table,
            "only in the file: \(named.subtracting(table).sorted()); only in the table: \(table.subtracting(named).sorted())")
    }

    /// Where the shipped settings file shows a setting commented out at a value, that value is
    /// the table's default (the ids and the PostgreSQL folder are examples, not defaults).
    @Test func theShippedSettingsFileShowsTheTablesDefaults() throws {
        let defaults = Dictionary(try Self.rows().flatMap { row in row.names.map { ($0, row.defaultValue) } }) { first, _ in first
        }
        let examples: Set = ["APNS_KEY_ID", "APNS_TEAM_ID", "APNS_BUNDLE_ID", "LIVEACTIVITY_SWEEP_DIR"]
        var compared = 0
        for line in try Documents.text("debian/conf/liveactivity.conf").split(separator: "\n") {
            guard let match = line.firstMatch(of: /^#((?:LIVEACTIVITY|APNS)_[A-Z_]+)=(.+)$/) else { continue }
            let name = String(match.output.1)
            let value = String(match.output.2)
            if examples.contains(name) { continue }
            compared += 1
            let stated = defaults[name] ?? ""
            #expect(
                stated.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).contains { $0 == value }
                    || stated.contains("`\(value)`"),
                "the settings file shows \(name)=\(value), the table's default is '\(stated)'")
        }
        #expect(compared >= 12, "\(compared) defaults compared")
    }

    /// liveactivity.conf(5) gives each setting the table's default (`Default: ...`).
    @Test func theManPageStatesTheTablesDefaults() throws {
        let page = try Documents.text("debian/man/liveactivity.conf.5").replacingOccurrences(of: "\\-", with: "-")
            .replacingOccurrences(of: "\\e", with: "\\")
        for row in try Self.rows() where !row.names.contains("LIVEACTIVITY_TEST_CLOCK_OFFSET") {
            let stated = row.defaultValue.replacingOccurrences(of: "`", with: "")
            #expect(page.contains("Default: \(stated)."), "liveactivity.conf(5) does not give \(row.names)'s default '\(stated)'")
        }
    }

    /// liveactivity.conf(5) describes each setting of the table in an entry of its own (`.TP`
    /// then `.B NAME`), and no other.
    @Test func theManPageNamesTheSameSettings() throws {
        let page = try Documents.text("debian/man/liveactivity.conf.5")
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        var named = Set<String>()
        for (index, line) in lines.enumerated() where line == ".TP" && index + 1 < lines.count {
            for match in lines[index + 1].matches(of: /((?:LIVEACTIVITY|APNS)_[A-Z_]+)/) { named.insert(String(match.output.1)) }
        }
        named.remove("LIVEACTIVITY_CONFIG")
        let table = try Self.settingNames()
        #expect(
            named == table,
            "only in the page: \(named.subtracting(table).sorted()); only in the table: \(table.subtracting(named).sorted())")
    }

    @Test func theResponderReadsWhatTheTableSaysAndNothingElse() throws {
        for row in try Self.rows() {
            // Any path is a valid database path: nothing malformed to try. `nan` is a good app
            // name; `NaN` is none.
            for name in row.names where name != "LIVEACTIVITY_DB" {
                let run = try responderOnce(name, name == "LIVEACTIVITY_APPS" ? "NaN" : "nan")
                if row.readBy == "sweep" {
                    #expect(
                        run.status == 0, "the responder refused \(name), which the table says only the sweep reads: \(run.stderr)"
                    )
                } else {
                    #expect(
                        run.status == 2 && run.stderr.contains(name), "the responder ignored a malformed \(name): \(run.stderr)")
                }
            }
        }
    }

    @Test func theLogLinesAreNotSaidToLackATimeStamp() throws {
        for document in ["README.md", Self.document, "docs/OPERATIONS.md"] {
            #expect(try !Documents.text(document).contains("no time stamp yet"), "\(document)")
        }
    }
}
