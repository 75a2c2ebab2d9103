/// A value an engine binds to a statement, as its client spells it (SQLite's
/// `PreparedStatement.Value`, PostgreSQL's `PostgresValue`): the cases a shared fragment needs,
/// and how the engine writes the `n`th placeholder (`?n`, `$n`). Enum cases meet the
/// requirements, so an engine conforms with its placeholder alone.
public protocol SQLValue: Sendable {
    static func integer(_ value: Int64) -> Self
    static func text(_ value: String) -> Self
    static var null: Self { get }

    /// The placeholder of the `number`th bind (from 1).
    static func placeholder(_ number: Int) -> String
}
