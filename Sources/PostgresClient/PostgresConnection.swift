import CPostgreSQL

/// One session with a PostgreSQL server (libpq's `PGconn`), used from one thread at a time.
///
/// Every call is bounded: libpq's asynchronous API sends, and the wait for the answer is a poll(2)
/// on the connection's socket with a deadline (`callTimeout`), so a server that stops answering
/// (a host cut off, a frozen server) costs the caller an `unreachable` error, never a hang. A
/// connection that failed that way, lost its server or met a read-only server is closed and
/// `isBroken`: the caller opens a new one (prepared statements belong to the old one). libpq's
/// notices (warnings sent to the client) are dropped, not printed on stderr. `package`: the
/// PostgreSQL engine and the tests use it, no feature does.
package final class PostgresConnection {
    let handle: OpaquePointer
    /// The bound on every later call's wait for its answer.
    package var callTimeout: Duration
    /// The name each statement's text was prepared under.
    private var statementNames: [String: String] = [:]
    /// The same statements, by their family's literal and their shape in it (`statement(_:shape:text:)`).
    private var shapedStatements: [ShapeKey: PostgresStatement] = [:]
    private var statementCount = 0

    private struct ShapeKey: Hashable {
        var family: UnsafeRawPointer
        var shape: Int
    }

    /// Connects to the server `conninfo` names (a URI or `key=value`, several hosts allowed),
    /// trying each host for up to `connectTimeout` in turn (or the string's `connect_timeout`, if
    /// shorter). `applicationName`, when given, names the session in `pg_stat_activity` and the
    /// server's log, in place of one the string gives.
    package convenience init(
        conninfo: String, applicationName: String? = nil, connectTimeout: Duration = .seconds(10),
        callTimeout: Duration = .seconds(30)
    ) throws(PostgresError) {
        try self.init(
            conninfo: PostgresConninfo(conninfo), applicationName: applicationName, connectTimeout: connectTimeout,
            callTimeout: callTimeout)
    }

    /// Connects with a connection string already parsed and checked.
    package init(
        conninfo: PostgresConninfo, applicationName: String? = nil, connectTimeout: Duration = .seconds(10),
        callTimeout: Duration = .seconds(30)
    ) throws(PostgresError) {
        handle = try Self.connect(conninfo, applicationName: applicationName, timeout: connectTimeout)
        self.callTimeout = callTimeout
    }

    /// Whether the connection can no longer be used: it was closed, lost its server, timed out
    /// waiting for an answer or found the server read-only. Open a new one.
    package private(set) var isBroken = false

    /// Closes the session now (libpq sends the server its goodbye). Later calls throw
    /// `unreachable`; closing twice does nothing.
    package func close() {
        guard !isBroken else { return }
        isBroken = true
        statementNames.removeAll()
        shapedStatements.removeAll()
        PQfinish(handle)
    }

    deinit { close() }

    /// The server process serving this session (`pg_stat_activity.pid`, `pg_terminate_backend`).
    package var backendPID: Int32 { isBroken ? 0 : PQbackendPID(handle) }

    /// The server's version as libpq reports it (150018 for 15.18).
    package var serverVersion: Int32 { isBroken ? 0 : PQserverVersion(handle) }

    /// Whether a transaction is open (or failed and not yet rolled back).
    package var isInTransaction: Bool { !isBroken && PQtransactionStatus(handle) != PQTRANS_IDLE }

    // MARK: - Statements

    /// Runs one or more statements without parameters (DDL, `SET`, a migration's text) as one
    /// simple-protocol query: several statements run in one transaction unless they say otherwise.
    package func execute(_ sql: String) throws(PostgresError) {
        _ = try exchange(sql: sql) { PQsendQuery($0, sql) }
    }

    /// Runs one statement with `values` bound to `$1`, `$2`, ..., without preparing it for reuse
    /// (an advisory lock, a statement run once).
    @discardableResult
    package func query(_ sql: String, _ values: [PostgresValue] = []) throws(PostgresError) -> PostgresResult {
        let parameters = try EncodedParameters(values, sql: sql)
        return try exchange(sql: sql) { handle in
            parameters.withArrays { PQsendQueryParams(handle, sql, $0, nil, $1, $2, $3, 0) }
        }
    }

    /// The statement for `sql`, prepared on the server on first use and kept for the life of the
    /// connection, so each later run sends only its name and values.
    package func statement(_ sql: String) throws(PostgresError) -> PostgresStatement {
        if let name = statementNames[sql] { return PostgresStatement(sql: sql, name: name, connection: self) }
        statementCount += 1
        let name = "liveactivity_\(statementCount)"
        _ = try exchange(sql: sql) { PQsendPrepare($0, name, sql, 0, nil) }
        statementNames[sql] = name
        return PostgresStatement(sql: sql, name: name, connection: self)
    }

    /// The statement of `shape` in the `family` of statements whose text varies with the parts a
    /// value needs (a literal naming the family, the shape a number the caller computes from those
    /// parts), its text built by `text` only the first time: for a statement run once per ack or
    /// per row, found without building or hashing its text.
    package func statement(
        _ family: StaticString, shape: Int, text: () -> String
    ) throws(PostgresError) -> PostgresStatement {
        precondition(family.hasPointerRepresentation, "a statement family is named by a string literal")
        let key = ShapeKey(family: UnsafeRawPointer(family.utf8Start), shape: shape)
        if let cached = shapedStatements[key] { return cached }
        let statement = try statement(text())
        shapedStatements[key] = statement
        return statement
    }

    /// Runs the prepared statement `name` with `values`.
    func runPrepared(_ statement: PostgresStatement, _ values: [PostgresValue]) throws(PostgresError) -> PostgresResult {
        let parameters = try EncodedParameters(values, sql: statement.sql)
        return try exchange(sql: statement.sql) { handle in
            parameters.withArrays { PQsendQueryPrepared(handle, statement.name, $0, $1, $2, $3, 0) }
        }
    }
}
