import LiveActivityStore
import SQLiteClient
import StoreSQL

/// SQLite writes the `n`th bind as `?n`.
extension PreparedStatement.Value: SQLValue {
    package static func placeholder(_ number: Int) -> String { "?\(number)" }
}

/// A statement on SQLite, its binds numbered by itself.
typealias SQLiteSQL = SQL<PreparedStatement.Value>

/// A statement on SQLite whose text is made once, its binds read from each run's input.
typealias SQLiteShape<Input> = StatementShape<Input, PreparedStatement.Value>

/// A `SQLiteShape`'s text and binds, or a fragment of them.
typealias SQLiteInputSQL<Input> = InputSQL<Input, PreparedStatement.Value>

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

    /// `shape`'s prepared statement, prepared on its first use and found by its name and number.
    func statement<Input>(_ shape: SQLiteShape<Input>) throws(SQLiteError) -> PreparedStatement {
        try statement(shape.name, shape: shape.number, text: { shape.text })
    }

    /// Runs `shape` with the values `input` binds.
    func run<Input>(_ shape: SQLiteShape<Input>, _ input: Input) throws(SQLiteError) {
        try statement(shape).run(shape.values(input))
    }

    /// The rows `shape` returns with the values `input` binds.
    func rows<Input, T>(_ shape: SQLiteShape<Input>, _ input: Input, _ read: (Row) -> T) throws(SQLiteError) -> [T] {
        try statement(shape).rows(shape.values(input), read)
    }
}
