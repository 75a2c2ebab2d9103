import CSQLite

/// One compiled SQL statement, prepared once and reused: `reset()` between uses, finalized in `deinit`.
public final class PreparedStatement {
    let handle: OpaquePointer
    let sql: String
    private unowned let connection: SQLiteConnection

    init(connection: SQLiteConnection, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(
            connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            throw connection.error(rc, sql: sql)
        }
        self.handle = statement
        self.sql = sql
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// A value that can be bound to a `?` parameter.
    public enum Value: Sendable, Equatable {
        case integer(Int64)
        case text(String)
        case null
    }

    /// Clears the previous run and binds `values` to the parameters in order.
    @discardableResult
    public func bind(_ values: [Value]) throws(SQLiteError) -> PreparedStatement {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .integer(let number): rc = sqlite3_bind_int64(handle, index, number)
            case .text(let text):
                rc = sqlite3_bind_text(handle, index, text, -1, liveactivity_sqlite_transient())
            case .null: rc = sqlite3_bind_null(handle, index)
            }
            guard rc == SQLITE_OK else { throw connection.error(rc, sql: sql) }
        }
        return self
    }

    /// Advances to the next row; `false` when the statement is done.
    public func step() throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = connection.error(rc, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs a statement that returns no rows (or ignores them) and resets it for the next use.
    public func run(_ values: [Value] = []) throws(SQLiteError) {
        try bind(values)
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Runs a one-row query and returns column 0 of that row as an integer (nil when no row).
    public func scalarInt(_ values: [Value] = []) throws(SQLiteError) -> Int64? {
        try bind(values)
        defer { sqlite3_reset(handle) }
        guard try step() else { return nil }
        return isNull(0) ? nil : int(0)
    }

    /// Releases locks and read snapshots held by an unfinished statement.
    public func reset() { sqlite3_reset(handle) }

    // MARK: - Columns of the current row

    public func int(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    public func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        return String(cString: bytes)
    }
    public func optionalInt(_ column: Int32) -> Int64? { isNull(column) ? nil : int(column) }
}
