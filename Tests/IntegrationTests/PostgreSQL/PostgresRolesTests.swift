import Foundation
import TestSupport
import Testing

/// docs/POSTGRESQL.md as an operator follows it: its SQL run as written in a
/// psql session, the sweep's `stats` creating the schema as the owner's role, its grants; then
/// the whole loop with the responder as the lesser role and the sweep as the owner, each with its
/// password from a password file. The lesser role must serve every route and be kept from the
/// provider token; a role without the grants gets one line and a 503, never a crash.
@Suite(
    "PostgreSQL roles as POSTGRESQL.md grants them")
struct PostgresRolesTests {
    /// The SQL blocks of docs/POSTGRESQL.md, in order.
    static func readmeBlocks() throws -> [String] {
        try MarkdownBlock.all("sql", in: "docs/POSTGRESQL.md").map(\.text)
    }

    /// One test's names for the document's: the sweep's role and its database (`liveactivity`), and
    /// the responder's role (`www-data`), unique in the shared cluster.
    struct Names {
        let sweep: String
        let web: String

        func apply(_ sql: String) -> String {
            sql.replacingOccurrences(of: "\"www-data\"", with: "\"\(web)\"").replacing(#/\bliveactivity\b/#, with: sweep)
        }
    }

    /// A role's password in a password file of its own (mode 0600), as docs/POSTGRESQL.md says.
    func passfile(in folder: TemporaryDirectory, cluster: PostgresCluster, database: String, role: String) throws -> String {
        let password = "pw-\(UInt64.random(in: 1...UInt64.max))"
        try cluster.psql("ALTER ROLE \(role) PASSWORD '\(password)'; GRANT liveactivity_password_login TO \(role)")
        let path = try folder.write(
            "\(role).pgpass", "\(cluster.socketDirectory):\(cluster.port):\(database):\(role):\(password)\n")
        chmod(path, 0o600)
        return path
    }

    func uri(_ cluster: PostgresCluster, database: String, role: String, passfile: String) -> String {
        PostgresCluster.uri(hosts: [cluster], database: database, user: role, options: ["passfile": passfile])
    }

    @Test func theResponderAndTheSweepServeAsTheRolesTheDocumentGrants() throws {
        let cluster = try PostgresCluster.shared()
        let blocks = try Self.readmeBlocks()
        try #require(blocks.count == 2, "docs/POSTGRESQL.md should hold the superuser's SQL and the grants: \(blocks)")
        let names = Names(sweep: cluster.uniqueName("readme_sweep"), web: cluster.uniqueName("readme_web"))
        defer {
            _ = try? cluster.psql("DROP DATABASE IF EXISTS \(names.sweep) WITH (FORCE)")
            _ = try? cluster.psql("DROP ROLE IF EXISTS \(names.web)")
            _ = try? cluster.psql("DROP ROLE IF EXISTS \(names.sweep)")
        }
        try cluster.psqlScript(names.apply(blocks[0]))
        let folder = TemporaryDirectory("roles")
        let sweepPassfile = try passfile(in: folder, cluster: cluster, database: names.sweep, role: names.sweep)
        let webPassfile = try passfile(in: folder, cluster: cluster, database: names.sweep, role: names.web)
        let sweepURI = uri(cluster, database: names.sweep, role: names.sweep, passfile: sweepPassfile)
        let webURI = uri(cluster, database: names.sweep, role: names.web, passfile: webPassfile)

        // The sweep's first run, as docs/POSTGRESQL.md says: `stats` creates the tables as their owner.
        let standIn = try StandInStack()
        let sweepEnvironment = standIn.sweepEnvironment(database: sweepURI)
        let first = try runCommand(product("liveactivity-sweep"), ["stats"], environment: sweepEnvironment)
        #expect(first.status == 0, "stats as the owner: \(first.stderr)")
        try cluster.psqlScript(names.apply(blocks[1]), database: names.sweep, user: names.sweep, passfile: sweepPassfile)

        // The whole loop with the responder as the lesser role.
        var options = LiveStack.Options(engine: .postgres)
        options.environment = ["LIVEACTIVITY_DB": webURI]
        let live = try LiveStack(options, label: "roles")
        let token = testToken(2301)
        #expect(try live.request("POST", "/wakeup", body: registerBody(token, interval: 900)).status == 200)
        #expect(try live.request("POST", "/wakeup", body: registerBody(token, type: "debug")).status == 200, "a refresh")
        #expect(try live.request("POST", "/wakeup", body: registerBody(testToken(2302))).status == 200)
        let sweep = try runCommand(product("liveactivity-sweep"), environment: sweepEnvironment)
        #expect(sweep.status == 0 && sweep.stdout.contains("sent=2 "), "the sweep as the owner: \(sweep.stdout) \(sweep.stderr)")
        #expect(try standIn.state().received(token: token).count == 1)
        #expect(try live.request("POST", "/wakeup/ack", body: unregisterBody(token)).status == 200)
        // The diagnostics read the attempts the sweep wrote as the owner, and the acked one says so.
        let diagnostics = try live.request("POST", "/wakeup/diagnostics", body: unregisterBody(token))
        #expect(diagnostics.status == 200 && diagnostics.text.contains("\"status\":200"), "\(diagnostics.text)")
        #expect(try live.request("POST", "/wakeup/unregister", body: unregisterBody(testToken(2302))).status == 200)
        let metrics = try live.request("GET", "/wakeup/metrics")
        #expect(
            metrics.status == 200 && metrics.text.contains("liveactivity_acks_total{outcome=\"matched\"} 1\n"), "\(metrics.text)")
        #expect(try live.request("GET", "/wakeup/status").status == 200)
        #expect(try live.request("GET", "/wakeup/health").status == 200)
        #expect(!live.responderLog.contains("permission denied"), "the responder's role lacked a grant: \(live.responderLog)")

        // The owner's side as the owner; the provider token out of the lesser role's reach.
        let history = try runCommand(
            product("liveactivity-sweep"), ["history", String(token.prefix(8))], environment: sweepEnvironment)
        #expect(history.status == 0 && history.stdout.contains("200"), "\(history.stdout) \(history.stderr)")
        #expect(try cluster.psql("SELECT count(*) FROM provider_tokens", database: names.sweep) == "1")
        for table in ["provider_tokens", "sweep_settings"] {
            #expect(throws: (any Error).self, "the responder's role reads \(table)") {
                try cluster.psqlScript("SELECT * FROM \(table)", database: names.sweep, user: names.web, passfile: webPassfile)
            }
        }
        // No other role of the server connects (issue 30 point 7: it could hold the sweeps'
        // advisory locks), nor creates a table in the schema (PUBLIC's CREATE on PostgreSQL 14).
        let stranger = cluster.uniqueName("stranger")
        try cluster.psql("CREATE ROLE \(stranger) LOGIN")
        defer { _ = try? cluster.psql("DROP ROLE IF EXISTS \(stranger)") }
        #expect(
            performing: { try cluster.psqlScript("SELECT 1", database: names.sweep, user: stranger) },
            throws: { error in
                "\(error)".contains("permission denied for database")
            })
        #expect(throws: (any Error).self, "the responder's role creates a table") {
            try cluster.psqlScript("CREATE TABLE planted (id int)", database: names.sweep, user: names.web, passfile: webPassfile)
        }
    }

    @Test func aRoleWithoutTheGrantsIsOneLineAndA503() throws {
        let cluster = try PostgresCluster.shared()
        let database = try TestDatabase(.postgres, label: "nogrants")
        // The schema made by its owner (the superuser here), then a role given nothing.
        _ = try database.count()
        let role = cluster.uniqueName("nogrants")
        let folder = TemporaryDirectory("nogrants")
        let postgres = try #require(database.postgres)
        try cluster.psql("CREATE ROLE \(role) LOGIN")
        defer { _ = try? cluster.psql("DROP OWNED BY \(role); DROP ROLE IF EXISTS \(role)", database: postgres.name) }
        let rolePassfile = try passfile(in: folder, cluster: cluster, database: postgres.name, role: role)
        let roleURI = uri(cluster, database: postgres.name, role: role, passfile: rolePassfile)

        var options = LiveStack.Options(engine: .postgres)
        options.environment = ["LIVEACTIVITY_DB": roleURI]
        options.waitForHealthy = false
        let live = try LiveStack(options, label: "nogrants")
        let register = try live.request("POST", "/wakeup", body: registerBody(testToken(2310)))
        #expect(register.status == 503 && register.text.hasPrefix("{\"error\":"), "\(register.status) \(register.text)")
        #expect(!register.text.contains("permission"), "no internals in the body: \(register.text)")
        #expect(try live.request("GET", "/wakeup/health").status == 503)
        #expect(try database.count() == 0, "nothing was written")
        let faultLines = live.responderLog.split(separator: "\n").filter { $0.contains("permission denied") }
        #expect(faultLines.count == 1, "one line for the fault, however many requests met it: \(live.responderLog)")
        #expect(faultLines.first?.contains("grant") == true, "the line says what to do: \(live.responderLog)")
        #expect(!live.responderLog.contains("pw-"), "no password in the log")

        let sweep = try runCommand(
            product("liveactivity-sweep"), ["stats"], environment: ["LIVEACTIVITY_DB": roleURI, "PATH": "/usr/bin:/bin"])
        #expect(sweep.status == 2, "a missing grant is a setting's fault: exit \(sweep.status): \(sweep.stderr)")
        #expect(sweep.stderr.split(separator: "\n").count == 1 && sweep.stderr.contains("permission denied"), "\(sweep.stderr)")
    }

    @Test func theResponderMayNotCreateTheSchemaAndSaysWhoDoes() throws {
        let cluster = try PostgresCluster.shared()
        let names = Names(sweep: cluster.uniqueName("empty_owner"), web: cluster.uniqueName("empty_web"))
        defer {
            _ = try? cluster.psql("DROP DATABASE IF EXISTS \(names.sweep) WITH (FORCE)")
            _ = try? cluster.psql("DROP ROLE IF EXISTS \(names.web)")
            _ = try? cluster.psql("DROP ROLE IF EXISTS \(names.sweep)")
        }
        try cluster.psqlScript(names.apply(try Self.readmeBlocks()[0]))
        let folder = TemporaryDirectory("empty")
        let webPassfile = try passfile(in: folder, cluster: cluster, database: names.sweep, role: names.web)
        // The responder started before the sweep ever ran: an empty database it may not build.
        let run = try runCommand(
            product("liveactivity-fcgi"), [],
            environment: [
                "GATEWAY_INTERFACE": "CGI/1.1", "REQUEST_METHOD": "GET", "SCRIPT_NAME": "/wakeup", "PATH_INFO": "/health",
                "LIVEACTIVITY_DB": uri(cluster, database: names.sweep, role: names.web, passfile: webPassfile),
                "PATH": "/usr/bin:/bin",
            ])
        let answer = try HTTPResult(parsing: Array(run.stdout.utf8))
        #expect(answer.status == 503)
        #expect(run.stderr.contains("no schema yet") && run.stderr.contains("sweep"), "\(run.stderr)")
        #expect(try cluster.psql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", database: names.sweep) == "0")
    }
}
