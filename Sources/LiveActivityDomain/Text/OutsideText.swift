/// A value from outside the program - a request's body or parameter, APNs's answer, a row of the
/// database (which any process of the web user may write) - as a log line or the operator's
/// terminal may show it (SPEC 7): every control character escaped, so it can neither start a
/// line of its own nor move a terminal's cursor or colour, and cut to a bounded length, so it
/// cannot fill a log. The one rule for every such value, whatever writes it (`Log` lines,
/// `stats`, `history`); JSON, HTML and Prometheus escape in their own way and take `cut` alone.
public enum OutsideText {
    /// The length a value keeps when no other is asked for: a reason, an apns-id, a name.
    public static let defaultLimit = 64

    /// Backslash escapes that read as what they stand for: `\n`, `\r`, `\t`, `\\`, `\x1b` for
    /// the other ASCII controls, `\u{85}` for the controls, format characters (bidirectional
    /// overrides) and line separators beyond ASCII.
    private static let escapes = EscapeTable(
        controls: controlEscape, named: ["\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"],
        beyondASCII: controlEscapeBeyondASCII)
    /// `line`'s escapes, and a space and a double quote too: for `quoted`.
    private static let quotedEscapes = EscapeTable(
        controls: controlEscape, named: ["\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", " ": "\\x20", "\"": "\\\""],
        beyondASCII: controlEscapeBeyondASCII)
    /// The same for a whole message, whose values are escaped already: backslashes stay as they are.
    private static let messageEscapes = EscapeTable(
        controls: controlEscape, named: ["\n": "\\n", "\r": "\\r", "\t": "\\t"], beyondASCII: controlEscapeBeyondASCII)

    private static func controlEscape(_ value: UInt32) -> String {
        "\\x" + (value < 0x10 ? "0" : "") + String(value, radix: 16)
    }

    @Sendable private static func controlEscapeBeyondASCII(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: "\\u{" + String(scalar.value, radix: 16) + "}"
        default: nil
        }
    }

    /// `value` escaped and cut to `limit` scalars of what is written, `…` standing for the rest
    /// (an escape is never cut in two).
    public static func line(_ value: String, limit: Int = defaultLimit) -> String {
        escaped(value, with: escapes, limit: limit)
    }

    /// `value` as one quoted word of a log line: escaped as `line` does, its spaces and quotes
    /// too, between double quotes. A log that a planted link made root append to a file read as
    /// a list of words (`/etc/ld.so.preload`) then holds no word of the value's own making: a
    /// planted row's `x /tmp/evil.so` is `"x\x20/tmp/evil.so"`.
    public static func quoted(_ value: String, limit: Int = defaultLimit) -> String {
        "\"" + escaped(value, with: quotedEscapes, limit: limit) + "\""
    }

    /// A message of the program's own, with values in it already escaped by `line`, made sure
    /// to be one line: its controls escaped (not its backslashes, which are the values' escapes)
    /// and cut to `limit`. What `Log` does to every line, so that nothing let through unescaped
    /// (a library's message quoting a planted name, say) starts a line of its own.
    public static func message(_ text: String, limit: Int) -> String {
        escaped(text, with: messageEscapes, limit: limit)
    }

    private static func escaped(_ value: String, with table: EscapeTable, limit: Int) -> String {
        var out = ""
        var written = 0
        for scalar in value.unicodeScalars {
            let piece = table.replacement(for: scalar) ?? String(scalar)
            let count = piece.unicodeScalars.count
            guard written + count <= limit else { return out + "…" }
            out += piece
            written += count
        }
        return out
    }

    /// `value` cut to `limit` scalars, `…` standing for the rest: for a writer that escapes in its
    /// own way (JSON's `\u001b`, HTML's entities).
    public static func cut(_ value: String, limit: Int = defaultLimit) -> String {
        let scalars = value.unicodeScalars
        guard scalars.count > limit else { return value }
        var out = String.UnicodeScalarView(scalars.prefix(limit))
        out.append("…")
        return String(out)
    }
}
