import LiveActivityStore
import PostgresClient

/// The database layout on PostgreSQL, versioned in `liveactivity_schema` and migrated forward on
/// open, one program at a time under an advisory lock (SPEC 4). Each step runs in its own
/// transaction and is never edited once shipped. Times are Unix milliseconds in `bigint`, the
/// values every engine stores alike; the database's own clock is read by `liveactivity_now_ms()`.
enum PostgresSchema {
    /// Migration `n` takes a database from version `n` to `n + 1`.
    static let migrations: [String] = [
        toVersion1, toVersion2, toVersion3, toVersion4, toVersion5, toVersion6, toVersion7, toVersion8, toVersion9,
        toVersion10,
    ]

    /// The version this build writes.
    static var currentVersion: Int64 { Int64(migrations.count) }

    /// The advisory lock key migrations hold: `liveactivity` in ASCII, a number no other program picks by chance.
    static let migrationLock: Int64 = 0x6C69_7665_6163_7476

    /// Brings the database up to `currentVersion`; refuses one from a newer build. A role without
    /// the grants to migrate (the responder's) only checks: the sweep's role migrates.
    static func migrate(_ connection: PostgresConnection) throws {
        if let version = try installedVersion(connection) {
            if version > currentVersion { throw SchemaTooNewError(found: version, supported: currentVersion) }
            if version == currentVersion { return }
        }
        _ = try connection.query("SELECT pg_advisory_lock($1)", [.integer(migrationLock)])
        defer { _ = try? connection.query("SELECT pg_advisory_unlock($1)", [.integer(migrationLock)]) }
        while true {
            // Re-read under the lock: another program may have migrated meanwhile.
            let version = try installedVersion(connection) ?? 0
            if version > currentVersion { throw SchemaTooNewError(found: version, supported: currentVersion) }
            guard version < currentVersion else { return }
            do {
                try connection.transaction {
                    try connection.execute(migrations[Int(version)])
                    try connection.execute("UPDATE liveactivity_schema SET version = \(version + 1)")
                }
            } catch let error as PostgresError where error.kind == .insufficientPrivilege {
                throw notMigratable(from: version)
            }
        }
    }

    /// The responder's role, split from the sweep's, may not create tables: the fault says who does.
    private static func notMigratable(from version: Int64) -> StoreFault {
        StoreFault(
            .permissionDenied,
            message: version == 0
                ? "the database has no schema yet, and this role may not create it"
                : "the schema is at version \(version), this build needs \(currentVersion), and this role may not migrate it",
            advice:
                "the sweep's role migrates it at its next run (or run liveactivity-sweep stats as its user; docs/POSTGRESQL.md)"
        )
    }

    /// The schema's version; nil when the database has none yet.
    static func installedVersion(_ connection: PostgresConnection) throws -> Int64? {
        let exists =
            try connection.query("SELECT to_regclass('liveactivity_schema') IS NOT NULL").firstRow { $0.bool(0) } ?? false
        guard exists else { return nil }
        return try connection.query("SELECT version FROM liveactivity_schema").firstRow { $0.int(0) } ?? 0
    }
}
