import Foundation
import TestSupport
import Testing

/// The database is shared by two users through their group (README step 2): whichever program
/// creates it, its files come out group-writable and private to others (issue #8 defect 0), and
/// the cached provider token lives in the sweep's folder beside it, where only the sweep's user
/// can read it (SPEC 5, defect 5a; SPEC 7).
@Suite("Shared database files")
struct SharedDatabaseFilesTests {
    func mode(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int
    }

    func modes(_ database: String) -> String {
        ["", "-wal", "-shm"].map { "\($0.isEmpty ? "db" : $0)=\(mode(database + $0).map { String($0, radix: 8) } ?? "none")" }
            .joined(separator: " ")
    }

    @Test func theResponderCreatesTheDatabaseGroupWritableWhateverItsUmask() throws {
        let folder = TemporaryDirectory("dbmode")
        let database = folder.file("db.sqlite")
        let socketPath = folder.file("fcgi.sock")
        // The umask of a login shell, not the one the program sets for itself.
        let responder = try ChildProcess(
            "/bin/sh", ["-c", "umask 022; exec \"$0\" --socket \"$1\" --workers 1", product("liveactivity-fcgi"), socketPath],
            environment: ["LIVEACTIVITY_DB": database, "PATH": "/usr/bin:/bin"], outputPath: folder.file("responder.log"))
        #expect(waitUntil(timeout: 60) { (try? RawSocket(unixPath: socketPath, timeout: 1)) != nil }, "\(responder.output)")
        let answer = try FastCGIClient.request(
            over: RawSocket(unixPath: socketPath),
            parameters: ["REQUEST_METHOD": "POST", "DOCUMENT_URI": "/wakeup", "CONTENT_TYPE": "application/json"],
            body: Array(registerBody(testToken(8000)).utf8))
        #expect(answer.status == 200)
        let all660 = ["", "-wal", "-shm"].allSatisfy { mode(database + $0) == 0o660 }
        #expect(all660, "the responder's new database files are \(modes(database)), not 660")
    }

    @Test func theSweepCreatesTheDatabaseGroupWritableWhateverItsUmask() throws {
        let standIn = try StandInStack(label: "dbmode-standin")
        let folder = TemporaryDirectory("sweepmode")
        let database = folder.file("db.sqlite")
        let run = try runCommand(
            "/bin/sh", ["-c", "umask 022; exec \"$0\"", product("liveactivity-sweep")],
            environment: standIn.sweepEnvironment(database: database))
        #expect(run.status == 0, "sweep: \(run.stderr)")
        #expect(mode(database) == 0o660, "the sweep's new database is \(modes(database)), not 660")
        let lock = mode(database + ".sweep/lock")
        #expect(lock.map { $0 & 0o077 == 0 } == true, "the sweep lock is \(lock.map { String($0, radix: 8) } ?? "none")")
        #expect(mode(database + ".sweep") == 0o700, "the sweep's folder is open to others")
    }

    // SQLite only: the provider token in a file is the SQLite engine's way.
    @Test
    func theProviderTokenIsCachedInAFileOnlyTheSweepsUserReads() throws {
        let fixture = try SweepFixture(.sqlite)
        try fixture.register([1])
        let run = try fixture.sweep()
        #expect(run.status == 0, "sweep: \(run.stderr)")
        let tokenFile = fixture.database.sweepFolder + "/provider-token"
        #expect(
            mode(tokenFile) == 0o600, "the provider token file is \(mode(tokenFile).map { String($0, radix: 8) } ?? "missing")")
        let tables = try runCommand(
            "/usr/bin/sqlite3", [fixture.databasePath, "SELECT name FROM sqlite_master WHERE name LIKE '%provider%'"])
        #expect(tables.status == 0 && tables.stdout.isEmpty, "the shared database still holds: \(tables.stdout)\(tables.stderr)")

        // The next run reuses the cached token: one token for both runs.
        try fixture.register([2])
        #expect(try fixture.sweep().status == 0)
        let tokens = Set(try fixture.received().compactMap(\.authorization))
        #expect(tokens.count == 1, "the second run signed a new token instead of reusing the cached one")
    }

    // SQLite only: the provider token in a file is the SQLite engine's way.
    @Test
    func aTokenFileOthersCouldReadIsReplacedNotTrusted() throws {
        let fixture = try SweepFixture(.sqlite)
        try fixture.register([1])
        #expect(try fixture.sweep().status == 0)
        let tokenFile = fixture.database.sweepFolder + "/provider-token"
        chmod(tokenFile, 0o644)
        try fixture.register([2])
        // Whether APNs takes the replacement at once (its 20-minute rule) is not the point here.
        _ = try fixture.sweep()
        #expect(mode(tokenFile) == 0o600, "a token file readable by others was kept as it was")
    }
}
