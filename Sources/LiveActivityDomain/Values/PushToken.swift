/// An APNs device token as the app sends it: hex digits, even length, 64 to 200 characters
/// (SPEC section 3), stored lowercase. Apple documents no fixed length, hence the range.
public struct PushToken: Hashable, Sendable, CustomStringConvertible {
    /// The lowercase hex text.
    public let hex: String

    public static let minimumLength = 64
    public static let maximumLength = 200

    /// Validates `text`; the error says which rule it broke.
    public init(validating text: String) throws(PushTokenError) {
        let utf8 = text.utf8
        guard utf8.count >= Self.minimumLength else {
            throw .tooShort
        }
        guard utf8.count <= Self.maximumLength else {
            throw .tooLong
        }
        var lower = [UInt8]()
        lower.reserveCapacity(utf8.count)
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"):
                lower.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "F"):
                lower.append(byte + 32)
            default:
                throw .notHex
            }
        }
        guard lower.count % 2 == 0 else {
            throw .oddLength
        }
        self.hex = String(decoding: lower, as: UTF8.self)
    }

    /// A token read back from our own database, already validated when stored.
    public init(trusted hex: String) { self.hex = hex }

    /// The first 8 characters: all that logs may show of a token (SPEC section 1).
    public var logPrefix: String { String(hex.prefix(8)) + "…" }

    public var description: String { logPrefix }
}
