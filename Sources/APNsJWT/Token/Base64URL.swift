/// Base64url without padding (RFC 4648 section 5), the alphabet JWT segments use (RFC 7515 section 2).
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes `bytes` with `-` and `_` and no `=` padding.
    public static func encode<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = iterator.next()
            let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            out.append(alphabet[Int(group >> 18 & 63)])
            out.append(alphabet[Int(group >> 12 & 63)])
            if second != nil { out.append(alphabet[Int(group >> 6 & 63)]) }
            if third != nil { out.append(alphabet[Int(group & 63)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Encodes the UTF-8 bytes of `text`.
    public static func encode(_ text: String) -> String { encode(Array(text.utf8)) }

    /// Decodes unpadded base64url; nil for any character outside the alphabet (including `=`),
    /// for a length no encoder produces, or for non-zero leftover bits.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 4 != 1,
            let decoded = Base64Bits(input, character62: UInt8(ascii: "-"), character63: UInt8(ascii: "_"), skipping: nil),
            // Canonical encodings leave zero bits behind the last byte.
            decoded.leftover == 0
        else { return nil }
        return decoded.bytes
    }
}

/// Standard base64 (RFC 4648 section 4), padding optional; nil for any other character.
enum Base64 {
    static func decode(_ text: String) -> [UInt8]? {
        Base64Bits(text.utf8, character62: UInt8(ascii: "+"), character63: UInt8(ascii: "/"), skipping: UInt8(ascii: "="))?.bytes
    }
}

/// Base64 text decoded in either alphabet, which differ only in the characters for 62 and 63
/// (RFC 4648 sections 4 and 5): the bytes, and the bits left behind the last one.
struct Base64Bits {
    var bytes: [UInt8] = []
    var leftover: UInt32 = 0

    /// nil for a character outside the alphabet other than `skipping`.
    init?(_ input: some Sequence<UInt8>, character62: UInt8, character63: UInt8, skipping: UInt8?) {
        bytes.reserveCapacity(input.underestimatedCount * 3 / 4)
        var bits = 0
        for character in input where character != skipping {
            let value: UInt8
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = character - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = character - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0") + 52
            case character62: value = 62
            case character63: value = 63
            default: return nil
            }
            leftover = leftover << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: leftover >> UInt32(bits)))
                leftover &= (1 << UInt32(bits)) - 1
            }
        }
    }
}
