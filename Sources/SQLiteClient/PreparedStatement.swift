import CSQLite

#if canImport(Glibc)
    import Glibc
#endif

/// One compiled SQL statement, prepared once and reused, finalized in `deinit`. A query is read
/// through `rows` or `firstRow`, which bind, step and reset it in one call, so no statement is
/// left holding a read snapshot or lock; a statement without rows is `run`.
package final class PreparedStatement {
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
    package enum Value: Sendable, Equatable {
        case integer(Int64)
        case text(String)
        case blob([UInt8])
        case null
    }

    // MARK: - Running

    /// Runs a statement that returns no rows (or ignores them) with `values` bound.
    package func run(_ values: [Value] = []) throws(SQLiteError) {
        try bind(values)
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Runs the query with `values` bound and returns `read` of each row, in order.
    package func rows<T>(_ values: [Value] = [], _ read: (Row) -> T) throws(SQLiteError) -> [T] {
        try bind(values)
        defer { sqlite3_reset(handle) }
        var rows: [T] = []
        while try step() { rows.append(read(Row(handle: handle))) }
        return rows
    }

    /// Runs the query with `values` bound and returns `read` of its first row (nil when none).
    package func firstRow<T>(_ values: [Value] = [], _ read: (Row) -> T) throws(SQLiteError) -> T? {
        try bind(values)
        defer { sqlite3_reset(handle) }
        return try step() ? read(Row(handle: handle)) : nil
    }

    /// `rows` with a reader that may refuse a row (a stored value this build does not know).
    package func rows<T, Refusal: Error>(_ values: [Value] = [], refusing read: (Row) throws(Refusal) -> T) throws -> [T] {
        try bind(values)
        defer { sqlite3_reset(handle) }
        var rows: [T] = []
        while try step() { rows.append(try read(Row(handle: handle))) }
        return rows
    }

    /// `firstRow` with a reader that may refuse the row.
    package func firstRow<T, Refusal: Error>(_ values: [Value] = [], refusing read: (Row) throws(Refusal) -> T) throws -> T? {
        try bind(values)
        defer { sqlite3_reset(handle) }
        return try step() ? try read(Row(handle: handle)) : nil
    }

    /// Column 0 of the first row as an integer (nil when there is no row or it is NULL).
    package func scalarInt(_ values: [Value] = []) throws(SQLiteError) -> Int64? {
        try firstRow(values) { $0.optionalInt(0) } ?? nil
    }

    /// Clears the previous run and binds `values` to the parameters in order.
    private func bind(_ values: [Value]) throws(SQLiteError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .integer(let number): rc = sqlite3_bind_int64(handle, index, number)
            case .text(var text):
                // The string's own UTF-8, copied once by SQLite: passed as a C string, Swift
                // first copied it into a new array to add the NUL. It ends at a NUL all the same.
                rc = text.withUTF8 { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { chars in
                        guard let start = chars.baseAddress else {
                            // An empty text, not NULL: SQLite takes a null pointer for NULL.
                            return sqlite3_bind_text(handle, index, "", 0, liveactivity_sqlite_transient())
                        }
                        return sqlite3_bind_text(
                            handle, index, start, Int32(strnlen(start, chars.count)), liveactivity_sqlite_transient())
                    }
                }
            case .blob(let bytes):
                rc = bytes.withUnsafeBytes { buffer in
                    // A zero-length blob, not NULL: SQLite takes a null pointer for NULL.
                    sqlite3_bind_blob(
                        handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count),
                        liveactivity_sqlite_transient())
                }
            case .null: rc = sqlite3_bind_null(handle, index)
            }
            guard rc == SQLITE_OK else { throw connection.error(rc, sql: sql) }
        }
    }

    /// Advances to the next row; `false` when the statement is done.
    private func step() throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(rc, sql: sql)
        }
    }
}

/// The current row of a query, for the `read` closure of `rows` and `firstRow` only: it reads the
/// statement in place (no copy of the row), so it must not be kept beyond that call.
package struct Row {
    fileprivate let handle: OpaquePointer

    package func int(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    package var columnCount: Int32 { sqlite3_column_count(handle) }
    package func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    package func optionalInt(_ column: Int32) -> Int64? { isNull(column) ? nil : int(column) }
    /// The column's bytes; nil when it is NULL.
    package func blob(_ column: Int32) -> [UInt8]? {
        guard !isNull(column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }
    package func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        return String(cString: bytes)
    }
}
