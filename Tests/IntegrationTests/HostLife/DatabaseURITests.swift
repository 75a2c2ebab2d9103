import Foundation
import TestSupport
import Testing

/// `LIVEACTIVITY_DB` as an operator mistypes or under-specifies it (issue 30 points 4 and 11):
/// a URI of another scheme was taken as a SQLite path and printed whole, password and all, and a
/// URI to a server across the network left libpq's `sslmode=prefer`, which hands the password to
/// any machine on the path that declines TLS; issue 48 points 3 and 4: a connection string of
/// another form was a SQLite path, a host beginning `127.` counted as loopback, and `service=`
/// went unchecked. Both programs refuse each at start with one line naming the setting, and
/// never echo the value.
@Suite("LIVEACTIVITY_DB's URI")
struct DatabaseURITests {
    static let secret = "hunter2-not-to-be-seen"

    /// `program` with `LIVEACTIVITY_DB` set to `value`: its exit status and output. The responder
    /// serves on without a database (503s) once a URI is accepted: it is run only with values it
    /// must refuse at start. It runs in `folder`, where a relative SQLite path would be made.
    func run(_ program: String, with value: String, in folder: String = "/") throws -> CommandResult {
        let environment = ["LIVEACTIVITY_DB": value, "PATH": "/usr/bin:/bin", "LIVEACTIVITY_SWEEP_DIR": "/tmp/never-made"]
        let arguments = program == "liveactivity-fcgi" ? ["--socket", "/tmp/never.sock"] : ["stats"]
        let command = ["-c", "cd \"$1\" || exit 97; shift; exec \"$@\"", "sh", folder, product(program)] + arguments
        return try runCommand("/bin/sh", command, environment: environment, timeout: 20)
    }

    /// Both programs with `value`.
    func start(with value: String, in folder: String = "/") throws -> [(program: String, result: CommandResult)] {
        try ["liveactivity-sweep", "liveactivity-fcgi"].map { ($0, try run($0, with: value, in: folder)) }
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

    /// Issue 48 point 3: a connection string in libpq's `key=value` form, or the scheme without
    /// `//`, was a SQLite path: the sweep printed it (exit 3), and the responder served on, making
    /// SQLite files named with the password in its folder. Refused at start, nothing made.
    @Test(arguments: [
        "host=db.example.org dbname=liveactivity password=\(secret)", "dbname = liveactivity password = \(secret)",
        "postgresql:sweep:\(secret)@db.example.org/liveactivity",
    ])
    func aConnectionStringOfAnotherFormIsRefusedWithoutItsValue(_ value: String) throws {
        let folder = TemporaryDirectory("dbform")
        for (program, result) in try start(with: value, in: folder.path) {
            let output = result.stdout + result.stderr
            #expect(result.status == 2, "\(program): \(output)")
            #expect(output.contains("LIVEACTIVITY_DB is malformed") && output.contains("postgresql://"), "\(program): \(output)")
            #expect(!output.contains(Self.secret), "\(program) printed the password: \(output)")
            #expect(output.split(separator: "\n").count == 1, "\(program): \(output)")
        }
        let made = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(made.isEmpty, "made in its folder: \(made.count) files")
    }

    @Test(arguments: [
        "postgresql://sweep:\(secret)@db.example.net/liveactivity",
        "postgresql://sweep:\(secret)@127.evil.example/liveactivity",
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

    /// Issue 48 point 4: a service file may name any host, which the rule above cannot see.
    @Test func aServiceIsRefused() throws {
        let value = "postgresql://sweep:\(Self.secret)@/liveactivity?service=liveactivity&sslmode=verify-full"
        for (program, result) in try start(with: value) {
            let output = result.stdout + result.stderr
            #expect(result.status == 2, "\(program): \(output)")
            #expect(output.contains("LIVEACTIVITY_DB") && output.contains("service="), "\(program): \(output)")
            #expect(!output.contains(Self.secret), "\(program) printed the password: \(output)")
            #expect(output.split(separator: "\n").count == 1, "\(program): \(output)")
        }
    }

    /// A unix socket, this machine's loopback, or a verified server: no such refusal (they then
    /// fail to connect, there being no server: a line of another kind).
    @Test(arguments: [
        "postgresql:///liveactivity?host=/nonexistent/socket", "postgresql://sweep@localhost:1/liveactivity",
        "postgresql://sweep@127.0.0.1:1/liveactivity", "postgresql://sweep@[::1]:1/liveactivity",
        "postgresql://sweep@127.1.2.3:1/liveactivity", "postgresql://sweep@%2Fnonexistent%2Fsocket/liveactivity",
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
