import LiveActivityDomain

/// A request as it reached the stand-in through nginx's HTTP/2 + TLS front: nginx hands every
/// request header over as an `HTTP_*` FastCGI parameter, which the executable maps back here.
public struct StandInRequest: Sendable {
    public var method: String
    public var path: String
    /// Header names lowercased (`authorization`, `apns-topic`, ...).
    public var headers: [String: String]
    public var body: [UInt8]
    /// The HTTP version nginx saw (`HTTP/2.0`), recorded so tests can prove HTTP/2 was used.
    public var serverProtocol: String
    /// nginx's number for the client connection (`$connection`), recorded so tests can prove
    /// pushes shared one connection.
    public var connection: String?
    /// Which of APNs's hosts the push named (`:authority`), as nginx's `map $host` tells it:
    /// the sandbox host is sandbox, anything else production.
    public var environment: APNsEnvironment

    public init(
        method: String, path: String, headers: [String: String], body: [UInt8], serverProtocol: String = "HTTP/2.0",
        connection: String? = nil, environment: APNsEnvironment = .production
    ) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        self.serverProtocol = serverProtocol
        self.connection = connection
        self.environment = environment
    }
}
