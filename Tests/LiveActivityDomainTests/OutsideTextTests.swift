import Testing

@testable import LiveActivityDomain

/// A value from outside as a log line or the terminal shows it (SPEC 7): escaped, cut.
@Suite struct OutsideTextUnitTests {
    @Test func controlsAreEscapedAsWhatTheyStandFor() {
        #expect(OutsideText.line("a\nb\r\tc\\d") == #"a\nb\r\tc\\d"#)
        #expect(OutsideText.line("\u{1B}[2J\u{7}\u{7F}") == #"\x1b[2J\x07\x7f"#)
        #expect(OutsideText.line("\u{85}\u{9B}\u{202E}\u{2028}\u{200B}") == #"\u{85}\u{9b}\u{202e}\u{2028}\u{200b}"#)
        #expect(OutsideText.line("BadDeviceToken é😀") == "BadDeviceToken é😀")
    }

    @Test func aValueIsCutToItsBoundWithoutSplittingAnEscape() {
        #expect(OutsideText.line(String(repeating: "a", count: 70)) == String(repeating: "a", count: 64) + "…")
        #expect(OutsideText.line("abc\n", limit: 4) == "abc…")
        #expect(OutsideText.line("abc\n", limit: 5) == #"abc\n"#)
        #expect(OutsideText.cut(String(repeating: "é", count: 65)) == String(repeating: "é", count: 64) + "…")
        #expect(OutsideText.cut("short") == "short")
    }

    @Test func aWholeMessageKeepsItsValuesEscapesAndLosesItsControls() {
        let value = OutsideText.line("a\nb")
        #expect(OutsideText.message("x=\(value) y=\u{1B}[2J\nz", limit: 100) == #"x=a\nb y=\x1b[2J\nz"#)
        #expect(OutsideText.message("abcdef", limit: 3) == "abc…")
    }

    /// Issue 30 point 13: a log that a planted link made root append to a list of words
    /// (`/etc/ld.so.preload`) must hold no word a value chose: a quoted value is one word.
    @Test func aQuotedValueIsOneWordWhateverItHolds() {
        let quoted = OutsideText.quoted("x /tmp/evil.so\t\"y\" \n/lib/z.so")
        #expect(quoted == #""x\x20/tmp/evil.so\t\"y\"\x20\n/lib/z.so""#)
        #expect(!quoted.contains(" ") && !quoted.contains("\t") && !quoted.contains("\n"))
        #expect(quoted.hasPrefix("\"") && quoted.hasSuffix("\""))
        #expect(
            OutsideText.quoted(String(repeating: " ", count: 100), limit: 8) == "\"" + String(repeating: #"\x20"#, count: 2)
                + "…\"")
    }
}
