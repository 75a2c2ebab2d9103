/// An IPv4 or IPv6 network, `10.0.0.0/8` or `2001:db8::/32`; an address alone is a network of
/// one (`/32`, `/128`). Bits beyond the prefix must be zero: `10.1.0.0/8` is a typing mistake
/// whose meaning is unclear, so it is refused rather than guessed.
public struct IPNetwork: Sendable, Equatable, CustomStringConvertible {
    public let address: IPAddress
    public let prefixLength: Int
    public let description: String

    /// Parses `address[/length]`; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(String(parts[0])) else { return nil }
        let bits = address.bytes.count * 8
        var length = bits
        if parts.count == 2 {
            guard parts[1].allSatisfy(\.isASCII), parts[1].allSatisfy(\.isNumber), parts[1].count <= 3,
                let parsed = Int(parts[1]), parsed <= bits
            else { return nil }
            length = parsed
        }
        self.address = address
        prefixLength = length
        description = text
        guard (0..<bits).allSatisfy({ $0 < length || !Self.bit($0, of: address.bytes) }) else { return nil }
    }

    /// Whether `other` lies in this network (an IPv4 address never lies in an IPv6 network).
    public func contains(_ other: IPAddress) -> Bool {
        other.bytes.count == address.bytes.count
            && (0..<prefixLength).allSatisfy { Self.bit($0, of: other.bytes) == Self.bit($0, of: address.bytes) }
    }

    private static func bit(_ index: Int, of bytes: [UInt8]) -> Bool {
        bytes[index / 8] & (0x80 >> UInt8(index % 8)) != 0
    }
}
