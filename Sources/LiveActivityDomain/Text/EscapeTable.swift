/// The one escape loop behind JSON strings, the status page's HTML and the lines of logs and the
/// operator's terminal (`OutsideText`): a table of what each ASCII character becomes, and a rule
/// for the other scalars; a character neither changes passes as it is.
package struct EscapeTable: Sendable {
    private var replacements = [String?](repeating: nil, count: 128)
    private let beyondASCII: @Sendable (Unicode.Scalar) -> String?

    /// `controls` gives what each character below U+0020 and U+007F becomes (nil: itself);
    /// `named` then sets single characters, over `controls`; `beyondASCII` what a scalar above
    /// U+007F becomes (nil, the default: itself).
    package init(
        controls: (UInt32) -> String?, named: [Unicode.Scalar: String],
        beyondASCII: @escaping @Sendable (Unicode.Scalar) -> String? = { _ in nil }
    ) {
        let controlValues: [UInt32] = Array(0..<0x20) + [0x7F]
        for value in controlValues { replacements[Int(value)] = controls(value) }
        for (scalar, replacement) in named {
            precondition(scalar.value < 128, "an escape table names ASCII characters only")
            replacements[Int(scalar.value)] = replacement
        }
        self.beyondASCII = beyondASCII
    }

    /// `text` with the table's replacements, appended to `out`.
    package func escape(_ text: String, into out: inout String) {
        for scalar in text.unicodeScalars {
            if let replacement = replacement(for: scalar) {
                out += replacement
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }

    /// What `scalar` becomes, nil when it stays as it is.
    package func replacement(for scalar: Unicode.Scalar) -> String? {
        scalar.value < 128 ? replacements[Int(scalar.value)] : beyondASCII(scalar)
    }
}
