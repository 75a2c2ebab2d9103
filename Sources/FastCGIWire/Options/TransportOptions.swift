#if canImport(Glibc)
    import Glibc
#endif

/// How the transport listens and serves: the command line's `--socket`, `--socket-mode`,
/// `--workers` and `--backlog`, plus the body limit the executable chooses.
public struct TransportOptions: Equatable, Sendable {
    /// `nil`: the inherited socket on stdin, or CGI when stdin is not a listening socket.
    public var address: ListenAddress?
    /// Worker threads, each serving one request at a time with its own responder.
    public var workers = 64
    /// `listen(2)` backlog for a socket this process opens.
    public var backlog: Int32 = 128
    /// Bodies larger than this arrive as `bodyTooLarge` with at most this many bytes + 1.
    public var maximumBodySize: Int
    /// `--supervise`: run the same command as a child and start it again whenever it exits.
    public var supervise = false

    public init(address: ListenAddress? = nil, workers: Int = 64, backlog: Int32 = 128, maximumBodySize: Int) {
        self.address = address
        self.workers = workers
        self.backlog = backlog
        self.maximumBodySize = maximumBodySize
    }

    /// What the command line asked for.
    public enum Command: Equatable, Sendable {
        case serve(TransportOptions)
        case help
        case version
    }

    /// Parses the transport's flags (`arguments` without the program name). Unknown flags are
    /// errors; an executable with flags of its own removes them first.
    public static func parse(_ arguments: [String], maximumBodySize: Int) throws(TransportUsageError) -> Command {
        var options = TransportOptions(maximumBodySize: maximumBodySize)
        var socket: String?
        var mode: mode_t = 0o660
        var beyondLoopback = false
        var rest = arguments[...]
        func value(_ flag: String) throws(TransportUsageError) -> String {
            guard let next = rest.popFirst() else { throw TransportUsageError("\(flag) needs a value") }
            return next
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--help", "-h":
                return .help
            case "--version":
                return .version
            case "--socket":
                socket = try value(argument)
            case "--supervise":
                options.supervise = true
            case "--listen-beyond-loopback":
                beyondLoopback = true
            case "--socket-mode":
                let text = try value(argument)
                guard let parsed = mode_t(text, radix: 8), parsed <= 0o777 else {
                    throw TransportUsageError("--socket-mode must be octal permissions such as 0660")
                }
                mode = parsed
            case "--workers":
                guard let count = Int(try value(argument)), (1...256).contains(count) else {
                    throw TransportUsageError("--workers must be a whole number from 1 to 256")
                }
                options.workers = count
            case "--backlog":
                guard let count = Int32(try value(argument)), (1...65535).contains(count) else {
                    throw TransportUsageError("--backlog must be a whole number from 1 to 65535")
                }
                options.backlog = count
            default:
                throw TransportUsageError("unknown argument \(argument.prefix(64)); see --help")
            }
        }
        if let socket {
            guard let address = ListenAddress.parse(socket, unixMode: mode) else {
                throw TransportUsageError("--socket needs a unix socket path or 127.0.0.1:PORT")
            }
            guard !address.reachesBeyondLoopback || beyondLoopback else {
                throw TransportUsageError(
                    "--socket \(socket.prefix(64)) listens beyond loopback, where anyone who reaches the port picks the environment and skips nginx's limits; add --listen-beyond-loopback to mean it"
                )
            }
            options.address = address
        }
        return .serve(options)
    }

    /// The flags' help text, for an executable's `--help`.
    public static let usage = """
          --socket PATH|[HOST:]PORT
                                   open this FastCGI socket (a unix path, or e.g. 127.0.0.1:9000;
                                   a port alone or :PORT is 127.0.0.1); without it, serve the
                                   listening socket on stdin (spawn-fcgi) or, when stdin is no
                                   socket, answer one CGI request
          --listen-beyond-loopback allow a TCP host other than 127.x.x.x (0.0.0.0, *, a name):
                                   FastCGI checks no peer, so anyone reaching the port skips
                                   nginx's limits and picks the environment; firewall it
          --socket-mode OCTAL      permissions of a unix socket (default 0660: owner and group)
          --workers N              worker threads, one request each at a time (default 64)
          --backlog N              listen backlog of an opened socket (default 128)
          --supervise              run as a supervisor of a child doing the work, restarted
                                   whenever it exits (for hosts without systemd); SIGTERM stops
                                   both, SIGHUP restarts the child
          --help                   show this help
          --version                print the program's version
        """
}

/// A command-line mistake: one line for the operator.
public struct TransportUsageError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
