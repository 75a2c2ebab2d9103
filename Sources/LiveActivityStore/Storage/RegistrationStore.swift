import LiveActivityDomain

/// The registrations table as the API sees it: register (or refresh), unregister, count.
///
/// Not thread-safe: one thread at a time uses a store (the responder shares one through
/// `RegistrationWriter`). It owns its connection and prepared statements; the connection is
/// `package` (the store's tests reach it), never part of the public API.
public final class RegistrationStore {
    package let connection: SQLiteConnection
    /// The file the connection opened (after migration, so it exists); nil if it could not be examined.
    public let openedFile: FileIdentity?

    /// Opens (creating if needed) and migrates the database at `path`. Concurrent openers are
    /// safe: each migration step re-checks the version inside its own write transaction.
    public init(path: String, options: DatabaseOptions = .init()) throws {
        let connection = try SQLiteConnection(path: path, options: options)
        try Schema.migrate(connection)
        self.connection = connection
        openedFile = FileIdentity(path: path)
    }

    /// True when the path no longer names the file this store has open: deleted, or replaced
    /// (moved over, restored from a backup). One `stat(2)`, cheap enough for every request.
    public var fileWasReplaced: Bool {
        guard let openedFile else { return false }
        return FileIdentity(path: connection.path) != openedFile
    }

    /// What `register` did.
    public enum RegisterResult: Equatable, Sendable {
        case created
        case refreshed
    }

    /// Stores `token`, or refreshes it: new registration time and expiry, due at once (the first
    /// push goes out at the next sweep), type and environment replaced, failures cleared, and the
    /// interval the app asked for (seconds) replaced too: a refresh without one clears it.
    /// A new token is refused when the table holds `cap` rows.
    @discardableResult
    public func register(
        _ token: PushToken, type: ActivityType, environment: APNsEnvironment,
        now: Int64, expiresAt: Int64, cap: Int, interval: Int? = nil
    ) throws -> RegisterResult {
        try connection.transaction {
            try registerInTransaction(
                token, type: type, environment: environment, now: now, expiresAt: expiresAt, cap: cap, interval: interval)
        }
    }

    /// `register` inside a transaction the caller holds. It changes nothing when it throws
    /// `StoreError.capacityReached`, so a batch may go on with its other writes.
    func registerInTransaction(
        _ token: PushToken, type: ActivityType, environment: APNsEnvironment,
        now: Int64, expiresAt: Int64, cap: Int, interval: Int? = nil
    ) throws -> RegisterResult {
        let values: [PreparedStatement.Value] = [
            .text(token.hex), .text(type.rawValue), .text(environment.rawValue), .integer(now), .integer(expiresAt),
            interval.map { .integer(Int64($0)) } ?? .null,
        ]
        try connection.statement(
            """
            UPDATE registrations SET activity_type = ?2, environment = ?3, registered_at = ?4,
                expires_at = ?5, next_push_at = ?4, consecutive_failures = 0, last_error = NULL, requested_interval = ?6
            WHERE push_token = ?1
            """
        ).run(values)
        if connection.changes > 0 { return .refreshed }
        let count = try connection.statement(Schema.registrationCountSQL).scalarInt() ?? 0
        guard count < cap else { throw StoreError.capacityReached(limit: cap) }
        try connection.statement(
            """
            INSERT INTO registrations (push_token, activity_type, environment, registered_at, expires_at, next_push_at,
                requested_interval)
            VALUES (?1, ?2, ?3, ?4, ?5, ?4, ?6)
            """
        ).run(values)
        return .created
    }

    /// Removes `token`; `false` when it was not registered (unregister is idempotent).
    @discardableResult
    public func unregister(_ token: PushToken) throws -> Bool {
        try unregisterInTransaction(token)
    }

    /// `unregister` as one statement, inside the caller's transaction or its own.
    func unregisterInTransaction(_ token: PushToken) throws -> Bool {
        try connection.statement("DELETE FROM registrations WHERE push_token = ?").run([.text(token.hex)])
        return connection.changes > 0
    }

    /// The number of stored registrations, from the trigger-maintained group counters.
    public func count() throws -> Int {
        Int(try connection.statement(Schema.registrationCountSQL).scalarInt() ?? 0)
    }

    /// One stored registration, for tests and the operator.
    public func registration(_ token: PushToken) throws -> Registration? {
        try connection.statement(
            """
            SELECT push_token, activity_type, environment, registered_at, expires_at, next_push_at,
                   last_push_at, wakeup_count, consecutive_failures, last_error, requested_interval
            FROM registrations WHERE push_token = ?
            """
        ).firstRow([.text(token.hex)], refusing: Registration.init(row:))
    }
}

extension Registration {
    /// Reads a row whose columns are in the order `registration(_:)` selects them.
    init(row: Row) throws(StoredValueError) {
        self.init(
            token: PushToken(trusted: row.text(0) ?? ""), activityType: try row.activityType(1),
            environment: try row.environment(2),
            registeredAt: row.int(3), expiresAt: row.int(4), nextPushAt: row.int(5),
            lastPushAt: row.optionalInt(6), wakeupCount: row.int(7), consecutiveFailures: row.int(8),
            lastError: row.text(9), requestedInterval: row.optionalInt(10).map { Int($0) })
    }
}
