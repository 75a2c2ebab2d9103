import Foundation
import TestSupport
import Testing

/// A `LIVEACTIVITY_DB` that leads nowhere (issue 23, SPEC 4 and 6): a URI libpq cannot read, a
/// server that is not there, a wrong password, a database that does not exist. The sweep says so
/// in one line naming `LIVEACTIVITY_DB` without the password and exits 2; the responder answers
/// 503 with the same line and serves once the database does, without a restart.
@Suite(
    "PostgreSQL connection strings that lead nowhere")
struct PostgresConnectionStringTests {
    /// The password every URI here carries, so that a log showing it is caught.
    static let secret = "Hunter2-in-the-uri"

    enum Fault: String, CaseIterable, Sendable {
        case noServer, wrongPassword, noDatabase
    }

    /// A URI with `fault`, and a role that exists with another password.
    func uri(_ fault: Fault, cluster: PostgresCluster, role: String, database: String) -> String {
        switch fault {
        case .noServer:
            "postgresql://\(role):\(Self.secret)@\(PostgresCluster.percentEncoded("/nonexistent/socket/folder"))/\(database)"
        case .wrongPassword:
            PostgresCluster.uri(hosts: [cluster], database: database, user: role, password: Self.secret)
        case .noDatabase:
            PostgresCluster.uri(hosts: [cluster], database: database + "_missing", user: role, password: "right-one")
        }
    }

    func role(in cluster: PostgresCluster) throws -> String {
        try cluster.createRole("uri", password: "right-one")
    }

    /// What the line must say for each fault, beside `LIVEACTIVITY_DB`.
    func cause(_ fault: Fault) -> String {
        switch fault {
        case .noServer: "unreachable"
        case .wrongPassword: "authentication failed"
        case .noDatabase: "no such database"
        }
    }

    @Test(arguments: Fault.allCases)
    func theSweepExits2WithOneLineNamingTheSetting(_ fault: Fault) throws {
        let cluster = try PostgresCluster.shared()
        let database = try TestDatabase(.postgres, label: "uri")
        let name = try #require(database.postgres?.name)
        let setting = uri(fault, cluster: cluster, role: try role(in: cluster), database: name)
        let folder = TemporaryDirectory("uri-sweep")
        let standIn = try StandInStack()
        var environment = standIn.sweepEnvironment(database: setting)
        environment["LIVEACTIVITY_SWEEP_DIR"] = folder.file("sweep")
        for arguments in [[], ["stats"], ["history", "abcdef01"]] {
            let run = try runCommand(product("liveactivity-sweep"), arguments, environment: environment)
            let lines = run.stderr.split(separator: "\n")
            #expect(run.status == 2, "\(fault) \(arguments): exit \(run.status): \(run.stderr)")
            #expect(lines.count == 1, "\(fault) \(arguments): one line, not \(lines.count): \(run.stderr)")
            #expect(run.stderr.contains("LIVEACTIVITY_DB") && run.stderr.contains(cause(fault)), "\(fault): \(run.stderr)")
            #expect(!(run.stdout + run.stderr).contains(Self.secret), "\(fault): the password is in the output: \(run.stderr)")
        }
        #expect(try standIn.state().received().isEmpty)
    }

    @Test(arguments: Fault.allCases)
    func theResponderAnswers503WithOneLine(_ fault: Fault) throws {
        let cluster = try PostgresCluster.shared()
        let database = try TestDatabase(.postgres, label: "uri")
        let name = try #require(database.postgres?.name)
        var options = LiveStack.Options(engine: .postgres)
        options.environment = ["LIVEACTIVITY_DB": uri(fault, cluster: cluster, role: try role(in: cluster), database: name)]
        options.waitForHealthy = false
        let live = try LiveStack(options, label: "uri")
        for round in 0..<3 {
            let answer = try live.request("POST", "/wakeup", body: registerBody(testToken(2320 + round)))
            #expect(answer.status == 503 && answer.text.hasPrefix("{\"error\":"), "\(fault): \(answer.status) \(answer.text)")
            #expect(!answer.text.contains(cause(fault)), "no internals in the body: \(answer.text)")
        }
        #expect(try live.request("GET", "/wakeup/health").status == 503)
        let lines = live.responderLog.split(separator: "\n").filter { $0.contains("LIVEACTIVITY_DB") }
        #expect(lines.count == 1 && lines[0].contains(cause(fault)), "\(fault): one line per fault: \(live.responderLog)")
        #expect(!live.responderLog.contains(Self.secret), "\(fault): the password is in the log: \(live.responderLog)")
        #expect(live.responder.isRunning)
    }

    @Test func aURILibpqCannotReadStopsEitherProgramAtStart() throws {
        let setting = "postgresql://liveactivity:\(Self.secret)@db.example:port/liveactivity"
        let sweep = try runCommand(
            product("liveactivity-sweep"), ["stats"], environment: ["LIVEACTIVITY_DB": setting, "PATH": "/usr/bin:/bin"])
        let responder = try runCommand(
            product("liveactivity-fcgi"), ["--socket", TemporaryDirectory("uri").file("fcgi.sock")],
            environment: ["LIVEACTIVITY_DB": setting, "PATH": "/usr/bin:/bin"])
        for (program, run) in [("sweep", sweep), ("responder", responder)] {
            #expect(run.status == 2, "\(program): a malformed setting is exit 2: \(run.status) \(run.stderr)")
            #expect(
                run.stderr.split(separator: "\n").count == 1 && run.stderr.contains("LIVEACTIVITY_DB"),
                "\(program): \(run.stderr)")
            #expect(!run.stderr.contains(Self.secret), "\(program): the password is in the line: \(run.stderr)")
        }
    }

    @Test func theResponderServesOnceTheDatabaseIsThereWithoutARestart() throws {
        let cluster = try PostgresCluster.shared()
        let name = cluster.uniqueName("late")
        defer { _ = try? cluster.psql("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
        var options = LiveStack.Options(engine: .postgres)
        options.environment = ["LIVEACTIVITY_DB": PostgresCluster.uri(hosts: [cluster], database: name)]
        options.waitForHealthy = false
        let live = try LiveStack(options, label: "late")
        #expect(try live.request("POST", "/wakeup", body: registerBody(testToken(2330))).status == 503)
        try cluster.psql("CREATE DATABASE \(name)")
        // Bounded: the first request after the database exists opens a connection and migrates.
        var answer = 0
        for _ in 0..<50 where answer != 200 {
            answer = try live.request("POST", "/wakeup", body: registerBody(testToken(2330))).status
            if answer != 200 { Thread.sleep(forTimeInterval: 0.1) }
        }
        #expect(answer == 200)
        #expect(try cluster.psql("SELECT count(*) FROM push_targets", database: name) == "1")
        #expect(live.responder.isRunning)
    }
}
