import Testing

@testable import LiveActivityDomain
@testable import RegistrationService

/// The strict JSON reader behind the request bodies: what it accepts, what it refuses, and
/// that it agrees with what JSONSerialization decided before it (SPEC section 3's 400 rows).
@Suite struct JSONReaderTests {
    func read(_ text: String) throws(JSONReader.Failure) -> JSONReader.Members {
        try JSONReader.members(of: Array(text.utf8))
    }

    func isInvalid(_ bytes: [UInt8]) -> Bool {
        do {
            _ = try JSONReader.members(of: bytes)
            return false
        } catch {
            return error == .invalid
        }
    }

    func isInvalid(_ text: String) -> Bool { isInvalid(Array(text.utf8)) }

    @Test func readsTheTopLevelStringsAndNullsAndSkipsTheRest() throws {
        let members = try read(#" {"a":"x", "b":null, "c":[1,{"d":true}], "e":-1.5e+3, "f":false} "#)
        #expect(members["a"] == .string("x"))
        #expect(members["b"] == .null)
        #expect(members["c"] == .other)
        #expect(members["e"] == .number(-1500))
        #expect(members["f"] == .bool(false), "booleans are kept: lowPower, changed")
        #expect(members["missing"] == nil)
    }

    @Test func theLastDuplicateWinsAsInJSONSerialization() throws {
        #expect(try read(#"{"a":"1","a":"2"}"#)["a"] == .string("2"))
        #expect(try read(#"{"a":"1","a":null}"#)["a"] == .null)
    }

    @Test func escapesAreDecodedInNamesAndValues() throws {
        let members = try read(#"{"push\u0054oken":"\"\\\/\b\f\n\r\t\u00e9\u00E9\ud83d\ude00"}"#)
        #expect(members["pushToken"] == .string("\"\\/\u{8}\u{c}\n\r\t\u{e9}\u{e9}😀"))
    }

    @Test func anEscapedNULIsAValueButARawOneIsRefused() throws {
        #expect(try read(#"{"a":"x\u0000y"}"#)["a"] == .string("x\u{0}y"))
        #expect(isInvalid([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0x00, 0x22, 0x7D]))
        #expect(isInvalid(Array(#"{"a":"1"}"#.utf8) + [0]))
    }

    @Test(arguments: [
        #"{"a":"\x"}"#, #"{"a":"\u12"}"#, #"{"a":"\ud800"}"#, #"{"a":"\udc00"}"#, #"{"a":"\ud800\u0041"}"#,
        "{\"a\":\"\t\"}", "{\"a\":\"x", #"{"a""#,
    ])
    func badStringsAreInvalid(_ text: String) {
        #expect(isInvalid(text))
    }

    @Test func invalidUTF8IsRefused() {
        let prefix: [UInt8] = Array(#"{"a":""#.utf8)
        let suffix: [UInt8] = Array(#""}"#.utf8)
        for sequence: [UInt8] in [
            [0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80], [0xC3],
        ] {
            #expect(isInvalid(prefix + sequence + suffix), "\(sequence)")
        }
        #expect(!isInvalid(prefix + [0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80] + suffix))
        #expect(isInvalid([0x7B, 0xC2, 0xA0, 0x7D]), "no-break space is not whitespace")
    }

    @Test(arguments: ["0", "-0", "12", "1.5", "1E+2", "1e-2", "-0.0e0", "123456789012345678901234567890"])
    func numbersInJSONsGrammarAreRead(_ number: String) throws {
        #expect(try read(#"{"a":\#(number)}"#)["a"] == .number(try #require(Double(number))))
        #expect(try read(#"{"a":[\#(number)]}"#)["a"] == .other, "inside an array: only checked")
    }

    @Test(arguments: ["01", "-", "1.", ".5", "+1", "1e", "1e+", "0x10", "1e999", "-1e999", "NaN", "Infinity"])
    func numbersOutsideItAreInvalid(_ number: String) {
        #expect(isInvalid(#"{"a":\#(number)}"#))
    }

    @Test func nestingIsLimitedTo512Levels() throws {
        func nested(_ arrays: Int) -> String {
            #"{"a":"# + String(repeating: "[", count: arrays) + String(repeating: "]", count: arrays) + "}"
        }
        #expect(try read(nested(511))["a"] == .other)
        #expect(isInvalid(nested(512)))
        #expect(isInvalid(String(repeating: "[", count: 100_000)))
        #expect(isInvalid(String(repeating: #"{"a":"#, count: 100_000)))
    }

    @Test(arguments: [
        "", "  ", "{", "}", #"{"a":1,}"#, #"{"a":[1,]}"#, "{'a':1}", "{} x", "{}{}", #"{"a" 1}"#, #"{a:1}"#,
        "tru", #"{"a":nul}"#, "{\u{0C}}",
    ])
    func malformedDocumentsAreInvalid(_ text: String) {
        #expect(isInvalid(text))
    }

    @Test(arguments: ["[1,2,3]", "\"text\"", "null", "true", "12", " [ ] "])
    func wellFormedNonObjectsAreNotAnObject(_ text: String) {
        #expect(throws: JSONReader.Failure.notAnObject) { try read(text) }
    }

    @Test func aUTF8ByteOrderMarkAndSurroundingWhitespaceAreAccepted() throws {
        #expect(try JSONReader.members(of: [0xEF, 0xBB, 0xBF] + Array(" \n\t\r{\"a\":\"b\"}\r\n".utf8))["a"] == .string("b"))
    }

    @Test func theAPIsMessagesAreUnchanged() {
        #expect(throws: APIError.badRequest("Request body is not valid JSON")) { try RegistrationBody.parse(Array("{,}".utf8)) }
        #expect(throws: APIError.badRequest("Request body must be a JSON object")) {
            try RegistrationBody.parse(Array("[]".utf8))
        }
        #expect(throws: APIError.badRequest("Request body must be a JSON object")) { try RegistrationBody.parse([]) }
        #expect(throws: APIError.badRequest("pushToken is required")) {
            try RegistrationBody.parse(Array(#"{"pushToken":null}"#.utf8))
        }
        #expect(throws: APIError.badRequest("pushToken must be a string")) {
            try RegistrationBody.parse(Array(#"{"pushToken":12}"#.utf8))
        }
        #expect(throws: APIError.badRequest("pushToken must contain hex digits only")) {
            try RegistrationBody.parse(Array(#"{"pushToken":"\#(String(repeating: "a", count: 63))\u0000"}"#.utf8))
        }
    }
}
