import LiveActivityStore
import PostgresClient
import StoreSQL

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

    /// The statement of `shape` in `family`, to run with `binds` listed straight from a value (no
    /// `SQL` built per run): its `SQL` is built by `sql` only the first time, for its text, and
    /// its binds are checked against `binds` then.
    func statement(
        _ family: StaticString, shape: Int = 0, binds: [PostgresValue], sql: () -> PostgresSQL
    ) throws(PostgresError) -> PostgresStatement {
        try connection.statement(family, shape: shape) {
            let built = sql()
            precondition(built.binds == binds, "binds listed in the order of the statement's text")
            return built.text
        }
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
