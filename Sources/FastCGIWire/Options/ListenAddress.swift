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

    /// Parses a `--socket` value: `host:port` when it ends in `:digits` and is not a path,
    /// else a unix socket path.
    public static func parse(_ text: String, unixMode: mode_t) -> ListenAddress? {
        guard !text.isEmpty else { return nil }
        if !text.contains("/"), let colon = text.lastIndex(of: ":"),
            let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port)
        {
            return .tcp(hostAndPort: text)
        }
        return .unix(path: text, mode: unixMode)
    }

    public var description: String {
        switch self {
        case .inherited: "the inherited socket on stdin"
        case .unix(let path, let mode): "unix:\(path) (mode 0\(String(mode, radix: 8)))"
        case .tcp(let hostAndPort): hostAndPort
        }
    }
}
