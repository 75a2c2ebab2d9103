/// The one escape loop behind JSON strings and the status page's HTML: a table of what each ASCII
/// character becomes; a character the table leaves out (and every non-ASCII one) passes as it is.
package struct EscapeTable: Sendable {
    private var replacements = [String?](repeating: nil, count: 128)

    /// `controls` gives what each character below U+0020 and U+007F becomes (nil: itself);
    /// `named` then sets single characters, over `controls`.
    package init(controls: (UInt32) -> String?, named: [Unicode.Scalar: String]) {
        let controlValues: [UInt32] = Array(0..<0x20) + [0x7F]
        for value in controlValues { replacements[Int(value)] = controls(value) }
        for (scalar, replacement) in named {
            precondition(scalar.value < 128, "an escape table names ASCII characters only")
            replacements[Int(scalar.value)] = replacement
        }
    }

    /// `text` with the table's replacements, appended to `out`.
    package func escape(_ text: String, into out: inout String) {
        for scalar in text.unicodeScalars {
            if scalar.value < 128, let replacement = replacements[Int(scalar.value)] {
                out += replacement
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
}
