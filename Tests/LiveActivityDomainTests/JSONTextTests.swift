import Testing

@testable import LiveActivityDomain

/// JSON strings as the API writes them: the named escapes, `\u00XX` for other control
/// characters, and everything else as it is (U+007F and non-ASCII included).
@Suite struct JSONTextTests {
    @Test func quotesBackslashesAndControlCharactersAreEscaped() {
        #expect(JSONText.string("a\"b\\c") == #""a\"b\\c""#)
        #expect(JSONText.string("\n\r\t") == #""\n\r\t""#)
        #expect(JSONText.string("\u{0}\u{8}\u{1F}") == #""\u0000\u0008\u001f""#)
    }

    @Test func otherCharactersPassAsTheyAre() {
        #expect(JSONText.string("\u{7F}/é😀") == "\"\u{7F}/é😀\"")
        #expect(JSONText.string("") == "\"\"")
        #expect(JSONText.array(["a", "\"b\""]) == #"["a","\"b\""]"#)
    }
}
