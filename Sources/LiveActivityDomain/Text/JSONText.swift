/// Writing the few JSON shapes the API answers with, without a general encoder in the hot path.
package enum JSONText {
    /// JSON's named escapes, `\u00XX` for the other control characters; U+007F may stand as it is.
    private static let escapes = EscapeTable(
        controls: { value in
            guard value < 0x20 else { return nil }
            let hex = String(value, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        },
        named: ["\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"])

    /// `"text"` with JSON escapes.
    package static func string(_ text: String) -> String {
        var out = "\""
        escapes.escape(text, into: &out)
        return out + "\""
    }

    /// `["a","b"]`.
    package static func array(_ items: [String]) -> String {
        "[" + items.map(string).joined(separator: ",") + "]"
    }
}
