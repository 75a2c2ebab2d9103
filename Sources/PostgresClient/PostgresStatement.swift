/// A statement prepared on one connection's server session under a generated name, run with
/// values as often as needed. It belongs to (and keeps) its connection: once that is broken,
/// running it throws `unreachable`, and a new connection prepares its own. The connection keeps
/// only the names it prepared, so there is no cycle between the two.
package struct PostgresStatement {
    package let sql: String
    let name: String
    let connection: PostgresConnection

    /// Whether this statement was prepared on `connection`.
    func belongs(to connection: PostgresConnection) -> Bool { self.connection === connection }

    /// Runs the statement with `values` bound to `$1`, `$2`, ...; its result holds any rows and
    /// `rowsAffected`.
    @discardableResult
    package func run(_ values: [PostgresValue] = []) throws(PostgresError) -> PostgresResult {
        try connection.runPrepared(self, values)
    }

    /// Runs the query and returns `read` of each row, in order.
    package func rows<T>(_ values: [PostgresValue] = [], _ read: (PostgresRow) -> T) throws(PostgresError) -> [T] {
        try run(values).rows(read)
    }

    /// Runs the query and returns `read` of its first row (nil when none).
    package func firstRow<T>(_ values: [PostgresValue] = [], _ read: (PostgresRow) -> T) throws(PostgresError) -> T? {
        try run(values).firstRow(read)
    }

    /// `rows` with a reader that may refuse a row (a stored value the caller does not know).
    package func rows<T, E: Error>(_ values: [PostgresValue] = [], refusing read: (PostgresRow) throws(E) -> T) throws -> [T] {
        try run(values).rows(read)
    }

    /// `firstRow` with a reader that may refuse the row.
    package func firstRow<T, E: Error>(_ values: [PostgresValue] = [], refusing read: (PostgresRow) throws(E) -> T) throws -> T? {
        try run(values).firstRow(read)
    }

    /// Column 0 of the first row as an integer (nil when there is no row or it is NULL).
    package func scalarInt(_ values: [PostgresValue] = []) throws(PostgresError) -> Int64? {
        try firstRow(values) { $0.optionalInt(0) } ?? nil
    }
}
