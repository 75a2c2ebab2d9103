import LiveActivityDomain
import LiveActivityStore
import PostgresClient

#if canImport(Glibc)
    import Glibc
#endif

/// One session with the PostgreSQL database, speaking the store's contract: the responder's
/// statements, a sweep's, and the figures' reads (`Statements/`). Used by one thread at a time;
/// its statements are prepared once on it and reused.
///
/// Every failure of the server or of libpq leaves it as a `StoreFault` (`PostgresFault`); errors
/// of the caller's own (a cap, a stored value this build cannot use) pass through unchanged. A
/// session that lost its server is stale: its owner opens another, which finds the primary again
/// when the URI lists several hosts.
final class PostgresStoreConnection: StoreConnection {
    let connection: PostgresConnection
    let location: String
    /// The database's clock ahead of this host's, measured when the session opened.
    let clockOffsetMilliseconds: Int64

    init(_ conninfo: PostgresConninfo, program: String, migrating: Bool) throws {
        location = conninfo.redacted
        do {
            connection = try PostgresConnection(
                conninfo: conninfo, applicationName: program, connectTimeout: PostgresEngine.connectTimeout,
                callTimeout: PostgresEngine.callTimeout)
            if migrating {
                try PostgresSchema.migrate(connection)
            } else if let version = try PostgresSchema.installedVersion(connection), version > PostgresSchema.currentVersion {
                throw SchemaTooNewError(found: version, supported: PostgresSchema.currentVersion)
            }
            clockOffsetMilliseconds = try Self.measureClock(connection)
        } catch let error as PostgresError {
            throw StoreFault(postgres: error, location: conninfo.redacted)
        }
    }

    /// The server's clock minus this host's, from one round trip (the host's clock read at its middle).
    private static func measureClock(_ connection: PostgresConnection) throws(PostgresError) -> Int64 {
        let before = Clock().now()
        let server =
            try connection.query("SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint").firstRow { $0.int(0) } ?? before
        let after = Clock().now()
        return server - (before + after) / 2
    }

    /// Runs `body`, turning the client's failures into `StoreFault`s; others pass unchanged.
    @discardableResult
    func storeFaults<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PostgresError {
            throw StoreFault(postgres: error, location: location)
        }
    }

    func transaction<T>(_ body: () throws -> T) throws -> T {
        try storeFaults { try connection.transaction(body) }
    }

    /// A session that lost its server (or found it a standby) is closed by the client: open
    /// another. The socket is looked at first, so a session the server ended while idle (a
    /// restart, a failover) is found before a request is lost to it.
    var staleness: Staleness? {
        guard connection.lostItsServer() else { return nil }
        return Staleness(
            key: "postgres-session-lost",
            line: "lost the session with the database \(location); opening a new one (the primary, after a failover)")
    }

    func close() { connection.close() }

    /// A prepared statement, prepared on first use.
    func statement(_ sql: String) throws(PostgresError) -> PostgresStatement { try connection.statement(sql) }

    func registrationCount() throws -> Int {
        try storeFaults {
            Int(try statement("SELECT coalesce(sum(n), 0)::bigint FROM registration_groups").scalarInt() ?? 0)
        }
    }
}
