import Testing

@testable import LiveActivityDomain

/// JSON strings as the API writes them: the named escapes, `\u00XX` for other control
/// characters, `\uXXXX` for the controls a terminal acts on beyond ASCII, and everything else
/// as it is.
@Suite struct JSONTextTests {
    @Test func quotesBackslashesAndControlCharactersAreEscaped() {
        #expect(JSONText.string("a\"b\\c") == #""a\"b\\c""#)
        #expect(JSONText.string("\n\r\t") == #""\n\r\t""#)
        #expect(JSONText.string("\u{0}\u{8}\u{1F}") == #""\u0000\u0008\u001f""#)
    }

    @Test func controlsBeyondASCIIAreEscapedForATerminal() {
        #expect(JSONText.string("\u{7F}\u{9B}\u{202E}\u{2028}\u{E0001}") == #""\u007f\u009b\u202e\u2028\udb40\udc01""#)
    }

    @Test func otherCharactersPassAsTheyAre() {
        #expect(JSONText.string("/é😀ß") == "\"/é😀ß\"")
        #expect(JSONText.string("") == "\"\"")
        #expect(JSONText.array(["a", "\"b\""]) == #"["a","\"b\""]"#)
    }
}
