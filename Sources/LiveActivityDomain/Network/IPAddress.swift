#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 address as its bytes (4 or 16), from the text a web server or the operator
/// writes. An IPv4 address mapped into IPv6 (`::ffff:127.0.0.1`, a dual-stack listener's form)
/// is that IPv4 address, so one rule covers both spellings.
public struct IPAddress: Sendable, Equatable {
    public let bytes: [UInt8]

    /// Parses `text` with the C library's own parser (`inet_pton`), strictly: no names, no ports,
    /// no zone ids, nothing around it. nil for anything else.
    public init?(_ text: String) {
        guard text.utf8.count <= 64 else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let all = withUnsafeBytes(of: &v6) { Array($0) }
        let mapped = all.prefix(10).allSatisfy { $0 == 0 } && all[10] == 0xFF && all[11] == 0xFF
        bytes = mapped ? Array(all.suffix(4)) : all
    }

    /// `127.0.0.0/8` or `::1`: this host.
    public var isLoopback: Bool {
        bytes.count == 4 ? bytes[0] == 127 : bytes == [UInt8](repeating: 0, count: 15) + [1]
    }
}
