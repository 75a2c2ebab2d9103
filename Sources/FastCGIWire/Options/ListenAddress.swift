#if canImport(Glibc)
    import Glibc
#endif

/// Where FastCGI connections come from.
public enum ListenAddress: Equatable, Sendable, CustomStringConvertible {
    /// The socket a spawner passed as file descriptor 0 (spawn-fcgi style, FastCGI spec 3.2).
    case inherited
    /// A unix socket this process creates at `path`, with permissions `mode` so that the web
    /// server's user (usually in the socket's group) can connect.
    case unix(path: String, mode: mode_t)
    /// A TCP socket this process opens, `host:port` (for example `127.0.0.1:9000`).
    case tcp(hostAndPort: String)

    /// Parses a `--socket` value: `[host:]port` when it ends in a port and is not a path, else a
    /// unix socket path. A port alone, `:port` and `localhost:port` mean 127.0.0.1 (SPEC 7:
    /// libfcgi binds every interface for an empty host, and a name is resolved however the host's
    /// resolver likes). A host with a colon of its own is refused: libfcgi splits at the first one.
    public static func parse(_ text: String, unixMode: mode_t) -> ListenAddress? {
        guard !text.isEmpty else { return nil }
        guard !text.contains("/") else { return .unix(path: text, mode: unixMode) }
        if let port = Self.port(text) { return .tcp(hostAndPort: "127.0.0.1:\(port)") }
        if let colon = text.lastIndex(of: ":"), let port = Self.port(text[text.index(after: colon)...]) {
            let host = text[..<colon]
            guard !host.contains(":") else { return nil }
            return .tcp(hostAndPort: (host.isEmpty || host == "localhost" ? "127.0.0.1" : String(host)) + ":\(port)")
        }
        return .unix(path: text, mode: unixMode)
    }

    private static func port(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber), let port = Int(text),
            (1...65535).contains(port)
        else { return nil }
        return port
    }

    private static func port(_ text: String) -> Int? { port(text[...]) }

    /// A TCP socket anyone beyond this host may reach: its host is not an IPv4 loopback literal
    /// (127.0.0.0/8). libfcgi checks no peer, so whoever reaches it picks the environment and
    /// skips nginx's limits. A unix socket or an inherited one is the operator's own choice.
    public var reachesBeyondLoopback: Bool {
        guard case .tcp(let hostAndPort) = self, let colon = hostAndPort.lastIndex(of: ":") else { return false }
        var address = in_addr()
        guard inet_pton(AF_INET, String(hostAndPort[..<colon]), &address) == 1 else { return true }
        return UInt32(bigEndian: address.s_addr) >> 24 != 127
    }

    public var description: String {
        switch self {
        case .inherited: "the inherited socket on stdin"
        case .unix(let path, let mode): "unix:\(path) (mode 0\(String(mode, radix: 8)))"
        case .tcp(let hostAndPort): hostAndPort
        }
    }
}
