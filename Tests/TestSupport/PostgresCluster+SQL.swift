import Foundation

/// The superuser's side of a test cluster: SQL through psql, fresh databases and roles.
extension PostgresCluster {
    /// Runs `sql` as the superuser in `database` with psql and returns its rows, one a line,
    /// columns split by `|`; a failure throws with psql's message.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        let result = try runCommand(
            Self.binaries + "/psql",
            [
                "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", socketDirectory, "-p", "\(port)",
                "-U", Self.superuser, "-d", database, "-c", sql,
            ],
            environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PGCONNECT_TIMEOUT": "60"], timeout: 120)
        guard result.status == 0 else { throw ClusterError("psql: \(result.stderr.suffix(2000))") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `script` through psql's standard input, statement by statement as an operator's
    /// session does (so `CREATE DATABASE` may follow another statement), as `user` with the
    /// password from `passfile` when given; a failure throws with psql's message.
    @discardableResult
    public func psqlScript(_ script: String, database: String = "postgres", user: String = superuser, passfile: String? = nil)
        throws -> String
    {
        var environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PGCONNECT_TIMEOUT": "60"]
        if let passfile { environment["PGPASSFILE"] = passfile }
        let result = try runCommand(
            Self.binaries + "/psql",
            [
                "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-w", "-h", socketDirectory, "-p", "\(port)", "-U", user,
                "-d", database, "-f", "-",
            ],
            environment: environment, input: Array(script.utf8), timeout: 120)
        guard result.status == 0 else { throw ClusterError("psql: \(result.stderr.suffix(2000))") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A new, empty database of its own for one test, dropped when the value is released.
    public func createDatabase(_ label: String = "test") throws -> PostgresTestDatabase {
        let name = uniqueName(label)
        try psql("CREATE DATABASE \(name)")
        return PostgresTestDatabase(cluster: self, name: name)
    }

    /// Drops `name`, ending its sessions, while the server serves.
    func dropDatabase(_ name: String) {
        guard isServing else { return }
        _ = try? psql("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// A new login role; returns its name (made unique from `label`). With a password it must log
    /// in with it (scram-sha-256: a wrong one is refused); without, it logs in by trust. Each of
    /// `grants` is a privilege clause given to it in `database` (`"SELECT ON ALL TABLES IN SCHEMA
    /// public"` becomes `GRANT SELECT ON ALL TABLES IN SCHEMA public TO <role>`). Roles are the
    /// cluster's and stay until it goes.
    @discardableResult
    public func createRole(
        _ label: String, password: String? = nil, grants: [String] = [], in database: PostgresTestDatabase? = nil
    ) throws -> String {
        let name = uniqueName(label)
        if let password {
            let literal = "'" + password.replacingOccurrences(of: "'", with: "''") + "'"
            try psql("CREATE ROLE \(name) LOGIN PASSWORD \(literal) IN ROLE liveactivity_password_login")
        } else {
            try psql("CREATE ROLE \(name) LOGIN")
        }
        for grant in grants { try psql("GRANT \(grant) TO \(name)", database: database?.name ?? "postgres") }
        return name
    }

    /// Ends (and waits up to 30 s for) every other session on `database`, or only those whose
    /// `application_name` is `applicationName`; returns how many it ended.
    @discardableResult
    public func terminateBackends(database: String, applicationName: String? = nil) throws -> Int {
        var condition = "datname = '\(database)' AND pid <> pg_backend_pid()"
        if let applicationName {
            condition += " AND application_name = '\(applicationName.replacingOccurrences(of: "'", with: "''"))'"
        }
        // The sessions are chosen first: in one WHERE, SQL may call the function before the filter.
        let ended = try psql(
            "WITH chosen AS MATERIALIZED (SELECT pid FROM pg_stat_activity WHERE \(condition)) "
                + "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid, 30000)) FROM chosen")
        return Int(ended) ?? 0
    }
}
