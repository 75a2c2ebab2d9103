/// Writing the few JSON shapes the API answers with, without a general encoder in the hot path.
package enum JSONText {
    /// JSON's named escapes, `\u00XX` for the other control characters (U+007F too), and
    /// `\uXXXX` for the controls, format characters (bidirectional overrides) and line
    /// separators beyond ASCII: JSON allows them raw, but a terminal showing `stats --json` acts
    /// on them (SPEC 7). Above U+FFFF, a UTF-16 surrogate pair, as JSON writes it.
    private static let escapes = EscapeTable(
        controls: { value in unicode(value) },
        named: ["\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"],
        beyondASCII: { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator:
                String(scalar).utf16.map { unicode(UInt32($0)) }.joined()
            default: nil
            }
        })

    private static func unicode(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }

    /// `"text"` with JSON escapes.
    package static func string(_ text: String) -> String {
        var out = "\""
        escapes.escape(text, into: &out)
        return out + "\""
    }

    /// `"text"` for a value from outside (the database, a client): cut to `OutsideText`'s bound
    /// first, as every such value is wherever it is written.
    package static func outside(_ text: String, limit: Int = OutsideText.defaultLimit) -> String {
        string(OutsideText.cut(text, limit: limit))
    }

    /// `["a","b"]`.
    package static func array(_ items: [String]) -> String {
        "[" + items.map(string).joined(separator: ",") + "]"
    }
}
