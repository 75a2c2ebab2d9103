import LiveActivityStore
import PostgresClient
import StoreSQL

/// PostgreSQL writes the `n`th bind as `$n`.
extension PostgresValue: SQLValue {
    package static func placeholder(_ number: Int) -> String { "$\(number)" }
}

/// A statement on PostgreSQL, its binds numbered by itself.
typealias PostgresSQL = SQL<PostgresValue>

/// A statement on PostgreSQL whose text is made once, its binds read from each run's input.
typealias PostgresShape<Input> = StatementShape<Input, PostgresValue>

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

    /// `shape`'s prepared statement, prepared on its first use and found by its name and number.
    func statement<Input>(_ shape: PostgresShape<Input>) throws(PostgresError) -> PostgresStatement {
        try connection.statement(shape.name, shape: shape.number, text: { shape.text })
    }

    /// Runs `shape` with the values `input` binds.
    @discardableResult
    func run<Input>(_ shape: PostgresShape<Input>, _ input: Input) throws(PostgresError) -> PostgresResult {
        try statement(shape).run(shape.values(input))
    }

    /// The rows `shape` returns with the values `input` binds.
    func rows<Input, T>(_ shape: PostgresShape<Input>, _ input: Input, _ read: (PostgresRow) -> T) throws(PostgresError) -> [T] {
        try statement(shape).rows(shape.values(input), read)
    }
}

/// One column of a batch, bound as one array with its type, for `unnest(...)`.
struct UnnestColumn {
    var array: PostgresValue
    var type: String

    static func text(_ values: [String?]) -> UnnestColumn { UnnestColumn(array: PostgresArray.text(values), type: "text[]") }

    static func integers(_ values: [Int64?]) -> UnnestColumn {
        UnnestColumn(array: PostgresArray.integers(values), type: "bigint[]")
    }

    static func bools(_ values: [Bool]) -> UnnestColumn {
        UnnestColumn(array: PostgresArray.text(values.map { $0 ? "true" : "false" }), type: "bool[]")
    }
}

extension SQL where Value == PostgresValue {
    /// `unnest(<tokens>::text[], <times>::bigint[], ...)`: a batch's columns, a thousand rows in one statement.
    static func unnest(_ columns: [UnnestColumn]) -> PostgresSQL {
        "unnest(\(joined(columns.map { "\(bind: $0.array)::\(raw: $0.type)" }, separator: ", ")))"
    }
}
