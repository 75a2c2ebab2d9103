import Foundation
import LiveActivityWakeClient
import Testing

/// The token as the app gets it and as the backend stores it, and no text that shows it whole.
@Suite struct DeviceTokenTests {
    let bytes = Data([0xAB, 0x01, 0xFF, 0x00] + Array(repeating: 0x5C, count: 28))

    @Test func theAppsDataBecomesLowercaseHexOfTwiceItsLength() {
        let token = DeviceToken(bytes)
        #expect(token.hex == "ab01ff00" + String(repeating: "5c", count: 28))
        #expect(token.hex.count == 64)
    }

    @Test func hexTextIsAcceptedInEitherCaseAndStoredLowercase() throws {
        let token = try #require(DeviceToken(hex: "AB01ff00" + String(repeating: "5C", count: 28)))
        #expect(token == DeviceToken(bytes))
    }

    @Test(arguments: ["", "abc", "zz" + String(repeating: "0", count: 62), "ab 01", "ab\n0", "ab01é0"])
    func textThatIsNotEvenHexIsRefused(_ text: String) {
        #expect(DeviceToken(hex: text) == nil)
    }

    @Test func noDescriptionShowsMoreThanTheFirstEightDigits() {
        let token = DeviceToken(bytes)
        var dumped = ""
        dump(token, to: &dumped)
        let texts = [
            token.description, token.debugDescription, "\(token)", String(describing: token), String(reflecting: token), dumped,
            "\([token])", "\(Optional(token) as Any)",
        ]
        for text in texts {
            #expect(!text.contains(token.hex.prefix(9)), "\(text)")
            #expect(text.contains("ab01ff00"), "\(text)")
        }
    }

    @Test func itIsKeptAsItsHexText() throws {
        let token = DeviceToken(bytes)
        let encoded = try JSONEncoder().encode([token])
        #expect(String(decoding: encoded, as: UTF8.self) == "[\"\(token.hex)\"]")
        #expect(try JSONDecoder().decode([DeviceToken].self, from: encoded) == [token])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([DeviceToken].self, from: Data("[\"xyz\"]".utf8)) }
    }
}
