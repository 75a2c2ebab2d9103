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
    /// The sweep's lease, which its claims and outcome writes on this session go under (set
    /// once per sweep; `SharedDatabase.lease`).
    var lease: SweepLease?

    /// `genericPlans`: the session plans each prepared statement once for any values
    /// (`plan_cache_mode = force_generic_plan`), for a session whose statements are all keyed by
    /// arrays of targets. Left to choose, the server plans the first five runs for their values:
    /// an outcome write's new lease id is a value its statistics have never seen, judged to match
    /// one row, and the write became a scan of the whole table joined to every key (1 to 3 s a
    /// batch of 1,000 at 100,000 rows, growing with the table) where the key's index takes 30 ms.
    init(_ conninfo: PostgresConninfo, program: String, migrating: Bool, genericPlans: Bool = false) throws {
        location = conninfo.redacted
        do {
            connection = try PostgresConnection(
                conninfo: conninfo, applicationName: program, connectTimeout: PostgresEngine.connectTimeout,
                callTimeout: PostgresEngine.callTimeout)
            // The server ends a session whose client went silent within a minute, not TCP's
            // default two hours: a host cut off while it held its name's lock or a row lock gets
            // them back at once when it returns (ignored on a unix socket, which cannot be cut).
            try connection.execute(
                "SET tcp_keepalives_idle = 15; SET tcp_keepalives_interval = 5; SET tcp_keepalives_count = 3; "
                    + "SET tcp_user_timeout = 30000" + (genericPlans ? "; SET plan_cache_mode = force_generic_plan" : ""))
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

    /// The server's clock minus this host's, from the quickest of a few round trips (the host's clock
    /// read at its middle: `ClockReading`).
    private static func measureClock(_ connection: PostgresConnection) throws -> Int64 {
        var readings: [ClockReading] = []
        for _ in 0..<ClockReading.readingsPerMeasure {
            let before = Clock().now()
            let server = try serverNow(connection)
            readings.append(ClockReading(before: before, remote: server, after: Clock().now()))
        }
        return ClockReading.closest(readings)?.offset ?? 0
    }

    /// What a server's clock may say: from 2001 to 2286 (Unix ms below 10^13). A value beyond
    /// (a hostile or broken server) is a fault, never a time the programs compute with.
    static let plausibleServerTimes: ClosedRange<Int64> = 1_000_000_000_000...9_999_999_999_999

    /// The server's clock (Unix ms), checked.
    private static func serverNow(_ connection: PostgresConnection) throws -> Int64 {
        let server = try connection.query("SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint").firstRow {
            $0.int(0)
        }
        guard let server, plausibleServerTimes.contains(server) else {
            throw StoreFault(
                .other(code: "clock"), message: "the database server's clock reads \(server.map(String.init) ?? "nothing") ms",
                advice: "set the database server's clock (NTP)")
        }
        return server
    }

    func databaseNow() throws -> Int64 {
        try storeFaults { try Self.serverNow(connection) }
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

    /// The registrations are the wake targets: their counters' sum, each held to 2^50 as it is
    /// read (a planted counter is a full table, never an overflow).
    func registrationCount() throws -> Int {
        try storeFaults {
            Int(
                try statement(
                    """
                    SELECT coalesce(sum(least(greatest(n, 0), 1125899906842624)), 0)::bigint FROM target_groups
                    WHERE push_kind = 'wake'
                    """
                ).scalarInt() ?? 0)
        }
    }
}
