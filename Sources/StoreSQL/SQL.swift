/// SQL text whose binds number themselves (STYLE 22, postgres-nio's `PostgresQuery` way):
/// `"... WHERE next_push_at <= \(bind: cutoff)"` keeps the value and writes the engine's
/// placeholder for its place, and a fragment interpolated into another renumbers its binds, so
/// no statement counts `?7` or `$8` by hand and a rule is one fragment both SQL engines share.
/// The text depends only on the statement's shape, never on its values: engines prepare it once
/// and find it again by its text.
public struct SQL<Value: SQLValue>: Sendable, ExpressibleByStringInterpolation {
    /// The text between binds: one more piece than binds.
    // Inlinable, so each engine's statements build it specialized for its own value type: it is
    // built once per pushed row, and unspecialized generic code cost the sweep a tenth of its rate.
    @usableFromInline var pieces: [String]
    /// The values bound, in the order their placeholders appear.
    public var binds: [Value]

    @inlinable public init(stringLiteral text: String) {
        pieces = [text]
        binds = []
    }

    @inlinable public init(stringInterpolation: StringInterpolation) {
        self = stringInterpolation.sql
    }

    /// The statement's text, each bind written as the engine's numbered placeholder.
    @inlinable public var text: String {
        var text = pieces[0]
        for (index, piece) in pieces.dropFirst().enumerated() {
            text += Value.placeholder(index + 1)
            text += piece
        }
        return text
    }

    /// Appends `other` after this, its binds numbered after these.
    @inlinable public mutating func append(_ other: SQL) {
        pieces[pieces.count - 1] += other.pieces[0]
        pieces += other.pieces.dropFirst()
        binds += other.binds
    }

    /// `parts` one after another with `separator` between them.
    @inlinable public static func joined(_ parts: [SQL], separator: String) -> SQL {
        var joined: SQL = ""
        for (index, part) in parts.enumerated() {
            if index > 0 { joined.append(SQL(stringLiteral: separator)) }
            joined.append(part)
        }
        return joined
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        @usableFromInline var sql: SQL = ""

        @inlinable public init(literalCapacity: Int, interpolationCount: Int) {}

        @inlinable public mutating func appendLiteral(_ literal: String) { sql.pieces[sql.pieces.count - 1] += literal }

        /// A value, bound: its placeholder goes here.
        @inlinable public mutating func appendInterpolation(bind value: Value) {
            sql.binds.append(value)
            sql.pieces.append("")
        }

        @inlinable public mutating func appendInterpolation(bind value: Int64) { appendInterpolation(bind: .integer(value)) }

        @inlinable public mutating func appendInterpolation(bind value: String) { appendInterpolation(bind: .text(value)) }

        /// Values bound one after another, their placeholders separated by commas (an `IN` list).
        @inlinable public mutating func appendInterpolation(binds values: [Value]) {
            for (index, value) in values.enumerated() {
                if index > 0 { appendLiteral(", ") }
                appendInterpolation(bind: value)
            }
        }

        /// A fragment: its text here, its binds numbered in place.
        @inlinable public mutating func appendInterpolation(_ fragment: SQL) { sql.append(fragment) }

        /// Text this build wrote (column lists, names of its own functions), never a stored or given value.
        @inlinable public mutating func appendInterpolation(raw text: String) { appendLiteral(text) }
    }
}
