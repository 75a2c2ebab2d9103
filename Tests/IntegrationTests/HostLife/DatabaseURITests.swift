import Foundation
import TestSupport
import Testing

/// `LIVEACTIVITY_DB` as an operator mistypes or under-specifies it (issue 30 points 4 and 11):
/// a URI of another scheme was taken as a SQLite path and printed whole, password and all, and a
/// URI to a server across the network left libpq's `sslmode=prefer`, which hands the password to
/// any machine on the path that declines TLS. Both programs refuse either at start with one line
/// naming the setting, and never echo the value.
@Suite("LIVEACTIVITY_DB's URI")
struct DatabaseURITests {
    static let secret = "hunter2-not-to-be-seen"

    /// `program` with `LIVEACTIVITY_DB` set to `value`: its exit status and output. The responder
    /// serves on without a database (503s) once a URI is accepted: it is run only with values it
    /// must refuse at start.
    func run(_ program: String, with value: String) throws -> CommandResult {
        let environment = ["LIVEACTIVITY_DB": value, "PATH": "/usr/bin:/bin", "LIVEACTIVITY_SWEEP_DIR": "/tmp/never-made"]
        let arguments = program == "liveactivity-fcgi" ? ["--socket", "/tmp/never.sock"] : ["stats"]
        return try runCommand(product(program), arguments, environment: environment)
    }

    /// Both programs with `value`.
    func start(with value: String) throws -> [(program: String, result: CommandResult)] {
        try ["liveactivity-sweep", "liveactivity-fcgi"].map { ($0, try run($0, with: value)) }
    }

    @Test(arguments: [
        "postgresq://sweep:\(secret)@db.example.net/liveactivity", "pg://sweep:\(secret)@db/liveactivity",
        "POSTGRESQL://sweep:\(secret)@db.example.net/liveactivity", "mysql://root:\(secret)@db/x",
    ])
    func aMisspeltSchemeIsRefusedWithoutItsPassword(_ value: String) throws {
        for (program, result) in try start(with: value) {
            let output = result.stdout + result.stderr
            #expect(result.status == 2, "\(program): \(output)")
            #expect(output.contains("LIVEACTIVITY_DB is malformed") && output.contains("postgresql://"), "\(program): \(output)")
            #expect(!output.contains(Self.secret), "\(program) printed the password: \(output)")
            #expect(output.split(separator: "\n").count == 1, "\(program): \(output)")
        }
    }

    @Test(arguments: [
        "postgresql://sweep:\(secret)@db.example.net/liveactivity",
        "postgresql://sweep@db1.example.net,db2.example.net/liveactivity?target_session_attrs=read-write",
        "postgresql://sweep@db.example.net/liveactivity?sslmode=require",
        "postgresql://sweep@/liveactivity?host=10.0.0.5&sslmode=prefer",
        "postgresql://sweep@localhost/liveactivity?hostaddr=192.0.2.7",
    ])
    func aServerAcrossTheNetworkMustBeVerified(_ value: String) throws {
        for (program, result) in try start(with: value) {
            let output = result.stdout + result.stderr
            #expect(result.status == 2, "\(program): \(output)")
            #expect(output.contains("LIVEACTIVITY_DB") && output.contains("sslmode=verify-full"), "\(program): \(output)")
            #expect(!output.contains(Self.secret), "\(program) printed the password: \(output)")
        }
    }

    /// A unix socket, this machine's loopback, or a verified server: no such refusal (they then
    /// fail to connect, there being no server: a line of another kind).
    @Test(arguments: [
        "postgresql:///liveactivity?host=/nonexistent/socket", "postgresql://sweep@localhost:1/liveactivity",
        "postgresql://sweep@127.0.0.1:1/liveactivity", "postgresql://sweep@[::1]:1/liveactivity",
        "postgresql://sweep@db.invalid/liveactivity?sslmode=verify-full&connect_timeout=2",
    ])
    func aLocalOrVerifiedServerIsNotRefusedForIt(_ value: String) throws {
        // The sweep only: the responder would serve on, answering 503 until a server is there.
        let result = try run("liveactivity-sweep", with: value)
        let output = result.stdout + result.stderr
        #expect(!output.contains("sslmode=verify-full for a server"), "\(output)")
        #expect(result.status != 0 && output.contains("LIVEACTIVITY_DB"), "it reached no server: \(output)")
    }

    /// Issue 30 point 10: on PostgreSQL the sweep's folder is named or the sweep does not run.
    @Test func aSweepOnPostgreSQLWithoutItsFolderIsRefused() throws {
        let environment = ["LIVEACTIVITY_DB": "postgresql:///liveactivity?host=/nonexistent", "PATH": "/usr/bin:/bin"]
        let folder = TemporaryDirectory("urikey")
        let key = try TestKey(in: folder)
        var settings = environment
        settings.merge([
            "APNS_KEY_ID": key.keyID, "APNS_TEAM_ID": key.teamID, "APNS_BUNDLE_ID": key.bundleID,
            "APNS_KEY_PATH": key.privateKeyPath,
        ]) { _, new in new }
        let result = try runCommand(product("liveactivity-sweep"), [], environment: settings)
        withExtendedLifetime(folder) {}
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("LIVEACTIVITY_SWEEP_DIR is not set"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}
