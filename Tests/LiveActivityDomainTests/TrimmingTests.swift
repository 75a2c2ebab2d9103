import Foundation
import LiveActivityDomain
import Testing

/// The trims the settings reader uses, against Foundation's, which they replace.
@Suite struct TrimmingTests {
    @Test(arguments: ["  a b  ", "\ta\t", "a", "", "   ", " \u{00A0}x\u{2003}", "x\r", "\r\nx y\n ", " é "])
    func blanksAndWhitespaceTrimAsFoundationTrims(text: String) {
        #expect(text.trimmingBlanks() == text.trimmingCharacters(in: .whitespaces))
        #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(text.dropFirst(0).trimmingBlanks() == text.trimmingCharacters(in: .whitespaces))
    }
}
