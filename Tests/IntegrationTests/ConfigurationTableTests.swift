import Foundation
import TestSupport
import Testing

/// README's configuration table says which program reads each setting (SPEC 6: each program
/// reads the names it uses; issue 18 point 12). The responder, run once as CGI, is held to it: a
/// malformed value of a setting "both" read stops it with exit 2 naming it, and one only the
/// sweep reads is ignored.
@Suite("README configuration table", .sqlitePassOnly)
struct ConfigurationTableTests {
    /// (names, read by) per row of the table under "## Configuration".
    static func rows() throws -> [(names: [String], readBy: String)] {
        let readme = try String(contentsOfFile: packageRoot + "/README.md", encoding: .utf8)
        guard let start = readme.range(of: "## Configuration\n"),
            let end = readme.range(of: "\n## ", range: start.upperBound..<readme.endIndex)
        else { throw SocketError("README has no Configuration section") }
        let lines = readme[start.upperBound..<end.lowerBound].split(separator: "\n")
        guard let header = lines.first(where: { $0.hasPrefix("| name |") }) else { throw SocketError("no table") }
        let columns = header.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let readByColumn = columns.firstIndex(of: "read by") else { throw SocketError("no 'read by' column: \(header)") }
        return lines.filter { $0.hasPrefix("| `") }.map { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            // Empty pieces kept, so the names are the odd ones also in a cell of several.
            let names = cells[0].split(separator: "`", omittingEmptySubsequences: false).enumerated().filter {
                $0.offset % 2 == 1
            }.map { String($0.element) }
            return (names, readByColumn < cells.count ? cells[readByColumn] : "")
        }
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

    @Test func theResponderReadsWhatTheTableSaysAndNothingElse() throws {
        for row in try Self.rows() {
            // Any path is a valid database path: nothing malformed to try.
            for name in row.names where name != "LIVEACTIVITY_DB" {
                let run = try responderOnce(name, "nan")
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
        let readme = try String(contentsOfFile: packageRoot + "/README.md", encoding: .utf8)
        #expect(!readme.contains("no time stamp yet"))
    }
}
