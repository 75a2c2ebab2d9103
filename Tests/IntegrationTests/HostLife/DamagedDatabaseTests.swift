import Foundation
import TestSupport
import Testing

/// Every database fault is a 503 (SPEC 3, issue #8 defect 7): a file that is not a database, a
/// corrupt one, and one from a newer build - each with one log line saying what is wrong, through
/// the API in CGI mode (one process per request, as Apache runs it) and through FastCGI.
@Suite("Damaged database")
struct DamagedDatabaseTests {
    enum Damage: String, CaseIterable, Sendable {
        case randomBytes, corruptAfterHeader, tooNew
    }

    /// A database file damaged in one way.
    func damagedDatabase(_ damage: Damage, in folder: TemporaryDirectory) throws -> String {
        let path = folder.file("damaged.sqlite")
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }
        switch damage {
        case .randomBytes:
            _ = FileManager.default.createFile(atPath: path, contents: Data(noise))
        case .corruptAfterHeader:
            _ = FileManager.default.createFile(atPath: path, contents: Data(Array("SQLite format 3\0".utf8) + noise))
        case .tooNew:
            let made = try runCommand(
                // A newer build writes WAL databases too (a rollback-journal file would be switched).
                "/usr/bin/sqlite3", [path, "PRAGMA journal_mode = WAL; CREATE TABLE future(x); PRAGMA user_version = 9999;"],
                environment: [:])
            guard made.status == 0 else { throw SocketError("sqlite3: \(made.stderr)") }
        }
        return path
    }

    func cgi(_ method: String, _ pathInfo: String, database: String, body: String? = nil) throws -> CommandResult {
        var environment = [
            "GATEWAY_INTERFACE": "CGI/1.1", "REQUEST_METHOD": method, "SCRIPT_NAME": "/wakeup", "PATH_INFO": pathInfo,
            "LIVEACTIVITY_DB": database, "PATH": "/usr/bin:/bin",
        ]
        if let body {
            environment["CONTENT_TYPE"] = "application/json"
            environment["CONTENT_LENGTH"] = String(body.utf8.count)
        }
        return try runCommand(
            product("liveactivity-fcgi"), [], environment: environment, input: body.map { Array($0.utf8) })
    }

    @Test(arguments: Damage.allCases)
    func healthAndRegistrationAnswer503ForADamagedDatabase(_ damage: Damage) throws {
        let folder = TemporaryDirectory("damaged")
        let database = try damagedDatabase(damage, in: folder)
        let before = try Data(contentsOf: URL(fileURLWithPath: database))
        for (method, path, body) in [("GET", "/health", nil), ("POST", "", registerBody(testToken(7000)))] {
            let run = try cgi(method, path, database: database, body: body)
            let answer = try HTTPResult(parsing: Array(run.stdout.utf8))
            #expect(
                answer.status == 503, "\(damage) \(method) \(path.isEmpty ? "/wakeup" : path): \(answer.status) \(answer.text)")
            #expect(answer.text.hasPrefix("{\"error\":"), "\(damage): the body is not the API's JSON: \(answer.text)")
            let lines = run.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(damage): \(lines.count) log lines: \(run.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before, "\(damage): the damaged file was changed")
    }

    @Test func aDatabaseFromANewerBuildSaysWhatToDo() throws {
        let folder = TemporaryDirectory("toonew")
        let database = try damagedDatabase(.tooNew, in: folder)
        let run = try cgi("GET", "/health", database: database)
        #expect(run.stderr.contains("newer"), "the log line does not say the database is from a newer build: \(run.stderr)")
        let sweep = try runCommand(
            product("liveactivity-sweep"), ["stats"], environment: ["LIVEACTIVITY_DB": database, "PATH": "/usr/bin:/bin"])
        // SPEC 4: a database too new is refused as a setting is (exit 2), on either engine.
        #expect(sweep.status == 2 && sweep.stderr.contains("newer"), "sweep stats: exit \(sweep.status): \(sweep.stderr)")
    }
}
