import SQLiteClient
import StoreSQL

/// A bind of a statement whose text is made once: how each run reads the bound value from the
/// run's input (`StatementShape`).
struct InputBind<Input>: SQLValue {
    let read: @Sendable (Input) -> PreparedStatement.Value

    init(_ read: @escaping @Sendable (Input) -> PreparedStatement.Value) { self.read = read }

    static func integer(_ value: Int64) -> Self { Self { _ in .integer(value) } }
    static func text(_ value: String) -> Self { Self { _ in .text(value) } }
    static var null: Self { Self { _ in .null } }
    static func placeholder(_ number: Int) -> String { PreparedStatement.Value.placeholder(number) }
}

extension SQL.StringInterpolation {
    /// A value each run reads from its input: its placeholder goes here.
    mutating func appendInterpolation<Input>(bind read: @escaping @Sendable (Input) -> PreparedStatement.Value)
    where Value == InputBind<Input> {
        appendInterpolation(bind: InputBind(read))
    }
}

/// A statement a request runs, its text built once from an `SQL` whose binds number themselves
/// (STYLE 22) and read each run's input, and found by its name's address and its number
/// (`SQLiteConnection.statement(_:shape:text:)`): looked up by its text, a statement's hundreds
/// of characters were hashed on every run (4% of a registration's instructions), and built anew
/// they would be allocated too.
struct StatementShape<Input>: Sendable {
    /// A literal naming the statement (its address is the key): one per statement, or per family
    /// whose members differ in `number`.
    let name: StaticString
    let number: Int
    let text: String
    private let binds: [InputBind<Input>]

    init(_ name: StaticString, number: Int = 0, _ sql: SQL<InputBind<Input>>) {
        self.name = name
        self.number = number
        text = sql.text
        binds = sql.binds
    }

    /// The values `input` binds, in the order of their placeholders.
    func values(_ input: Input) -> [PreparedStatement.Value] { binds.map { $0.read(input) } }
}

extension SQLiteConnection {
    /// `shape`'s prepared statement, prepared on its first use.
    func statement<Input>(_ shape: StatementShape<Input>) throws(SQLiteError) -> PreparedStatement {
        try statement(shape.name, shape: shape.number, text: { shape.text })
    }

    /// Runs `shape` with the values `input` binds.
    func run<Input>(_ shape: StatementShape<Input>, _ input: Input) throws(SQLiteError) {
        try statement(shape).run(shape.values(input))
    }
}
