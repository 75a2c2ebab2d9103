/// A bind of a statement whose text is made once (`StatementShape`): how each run reads the
/// value it binds from the run's input, as the engine spells it (`Value`).
public struct InputBind<Input, Value: SQLValue>: SQLValue {
    public let read: @Sendable (Input) -> Value

    @inlinable public init(_ read: @escaping @Sendable (Input) -> Value) { self.read = read }

    // A literal's value, the same on every run.
    public static func integer(_ value: Int64) -> Self { Self { _ in .integer(value) } }
    public static func text(_ value: String) -> Self { Self { _ in .text(value) } }
    public static var null: Self { Self { _ in .null } }
    public static func placeholder(_ number: Int) -> String { Value.placeholder(number) }
}

/// An `SQL` whose binds each run reads from its input: a `StatementShape`'s text and binds.
public typealias InputSQL<Input, Value: SQLValue> = SQL<InputBind<Input, Value>>

extension SQL.StringInterpolation {
    /// A value each run reads from its input: its placeholder goes here.
    @inlinable public mutating func appendInterpolation<Input, Bound>(bind read: @escaping @Sendable (Input) -> Bound)
    where Value == InputBind<Input, Bound> {
        appendInterpolation(bind: InputBind(read))
    }
}

/// A statement run per request or per pushed row, its text built once from an `SQL` whose binds
/// number themselves (STYLE 22) and read each run's input, and found by its name's address and
/// its number (each engine's connection keeps it by those: `statement(_:shape:text:)`): looked
/// up by its text, a statement's hundreds of characters were hashed on every run (4% of a
/// registration's instructions), and built anew they would be allocated too.
public struct StatementShape<Input, Value: SQLValue>: Sendable {
    /// A literal naming the statement (its address is the key): one per statement, or per family
    /// whose members differ in `number`.
    public let name: StaticString
    public let number: Int
    public let text: String
    // Inlinable, so each engine reads its binds specialized for its own value type: this runs
    // once per pushed row.
    @usableFromInline let binds: [InputBind<Input, Value>]

    public init(_ name: StaticString, number: Int = 0, _ sql: InputSQL<Input, Value>) {
        self.name = name
        self.number = number
        text = sql.text
        binds = sql.binds
    }

    /// The values `input` binds, in the order of their placeholders.
    @inlinable public func values(_ input: Input) -> [Value] { binds.map { $0.read(input) } }
}
