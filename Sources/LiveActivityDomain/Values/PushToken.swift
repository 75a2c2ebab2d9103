/// An APNs device token as the app sends it: hex digits, even length, 64 to 200 characters
/// (SPEC section 3), stored lowercase. Apple documents no fixed length, hence the range.
public struct PushToken: Hashable, Sendable, CustomStringConvertible {
    /// The lowercase hex text.
    public let hex: String

    public static let minimumLength = 64
    public static let maximumLength = 200

    /// Validates `text`; the error says which rule it broke.
    public init(validating text: String) throws(PushTokenError) {
        var text = text
        let checked: Result<String, PushTokenError> = text.withUTF8 { utf8 in
            guard utf8.count >= Self.minimumLength else { return .failure(.tooShort) }
            guard utf8.count <= Self.maximumLength else { return .failure(.tooLong) }
            guard utf8.allSatisfy(Self.isHexDigit) else { return .failure(.notHex) }
            guard utf8.count % 2 == 0 else { return .failure(.oddLength) }
            // Lowercased straight into the new string's storage: one allocation, no byte array.
            return .success(
                String(unsafeUninitializedCapacity: utf8.count) { lower in
                    for (index, byte) in utf8.enumerated() {
                        lower[index] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F") ? byte + 32 : byte
                    }
                    return utf8.count
                })
        }
        self.hex = try checked.get()
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default: false
        }
    }

    /// A token read back from our own database, already validated when stored.
    public init(trusted hex: String) { self.hex = hex }

    /// The first 8 characters: all that logs may show of a token (SPEC section 1).
    public var logPrefix: String { String(hex.prefix(8)) + "…" }

    public var description: String { logPrefix }
}
