import LiveActivityStore
import SQLiteClient
import StoreSQL

/// SQLite writes the `n`th bind as `?n`.
extension PreparedStatement.Value: SQLValue {
    package static func placeholder(_ number: Int) -> String { "?\(number)" }
}

/// A statement on SQLite, its binds numbered by itself.
typealias SQLiteSQL = SQL<PreparedStatement.Value>

/// Runs an `SQL` value: its statement prepared once and found again by its text, its binds bound.
extension SQLiteConnection {
    func run(_ sql: SQLiteSQL) throws(SQLiteError) { try statement(sql.text).run(sql.binds) }

    func rows<T>(_ sql: SQLiteSQL, _ read: (Row) -> T) throws(SQLiteError) -> [T] {
        try statement(sql.text).rows(sql.binds, read)
    }

    func firstRow<T>(_ sql: SQLiteSQL, _ read: (Row) -> T) throws(SQLiteError) -> T? {
        try statement(sql.text).firstRow(sql.binds, read)
    }

    func scalarInt(_ sql: SQLiteSQL) throws(SQLiteError) -> Int64? { try statement(sql.text).scalarInt(sql.binds) }

    /// The statement of `shape` in `family`, to run with `binds` listed straight from a value (no
    /// `SQL` built per run): its `SQL` is built by `sql` only the first time, for its text, and
    /// its binds are checked against `binds` then.
    func statement(
        _ family: StaticString, shape: Int, binds: [PreparedStatement.Value], sql: () -> SQLiteSQL
    ) throws(SQLiteError) -> PreparedStatement {
        try statement(family, shape: shape) {
            let built = sql()
            precondition(built.binds == binds, "binds listed in the order of the statement's text")
            return built.text
        }
    }
}
