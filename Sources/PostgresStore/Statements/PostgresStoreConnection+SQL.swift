import LiveActivityStore
import PostgresClient

/// PostgreSQL writes the `n`th bind as `$n`.
extension PostgresValue: SQLValue {
    package static func placeholder(_ number: Int) -> String { "$\(number)" }
}

/// A statement on PostgreSQL, its binds numbered by itself.
typealias PostgresSQL = SQL<PostgresValue>

/// Runs an `SQL` value: its statement prepared once and found again by its text, its binds bound.
extension PostgresStoreConnection {
    @discardableResult
    func run(_ sql: PostgresSQL) throws(PostgresError) -> PostgresResult { try statement(sql.text).run(sql.binds) }

    func rows<T>(_ sql: PostgresSQL, _ read: (PostgresRow) -> T) throws(PostgresError) -> [T] {
        try statement(sql.text).rows(sql.binds, read)
    }

    func firstRow<T>(_ sql: PostgresSQL, _ read: (PostgresRow) -> T) throws(PostgresError) -> T? {
        try statement(sql.text).firstRow(sql.binds, read)
    }

    func scalarInt(_ sql: PostgresSQL) throws(PostgresError) -> Int64? { try statement(sql.text).scalarInt(sql.binds) }
}
