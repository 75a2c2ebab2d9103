import LiveActivityDomain

/// How an `APNsClient` connects: which host, trust, timeouts and the in-flight window. The topic
/// is each push's own (`APNsPush.bundleID`): one client sends for every app of its token's team.
public struct APNsClientOptions: Sendable, Equatable {
    /// `https://host[:port]` without a trailing slash; pushes go to `<baseURL>/3/device/<token>`.
    /// Its host is what every push names (`:authority`, TLS SNI) and what the certificate must match.
    public var baseURL: String
    /// `host:port` to connect to instead of the URL's host (CURLOPT_CONNECT_TO), so a push to the
    /// local stand-in still names Apple's host and the stand-in tells the environments apart as
    /// APNs's two hosts do. nil: the URL's host.
    public var connectTo: String?
    /// A PEM CA file to trust, for the local stand-in's self-signed certificate. It replaces
    /// libcurl's CA *bundle* (CURLOPT_CAINFO) while CURLOPT_CAPATH stays at libcurl's built-in
    /// default (`/etc/ssl/certs` on Debian), so the system's CAs remain trusted too: in addition to.
    public var caFile: String?
    /// Seconds allowed for TCP + TLS setup (CURLOPT_CONNECTTIMEOUT_MS).
    public var connectTimeout: Double = 10
    /// Seconds allowed for a whole push, from being handed to libcurl to the last byte
    /// (CURLOPT_TIMEOUT_MS), including waiting for a shared connection.
    public var requestTimeout: Double = 30
    /// The most pushes in flight at once, over all connections. The client keeps as many in
    /// flight as the server's SETTINGS_MAX_CONCURRENT_STREAMS allows up to this (`InFlightWindow`).
    public var maxInFlight = Self.mostInFlight
    /// The default of `maxInFlight`: four connections of 500 streams.
    public static let mostInFlight = 2000
    /// The most connections to the host (CURLMOPT_MAX_HOST_CONNECTIONS): one for a small run,
    /// one more per `pushesPerConnection` of backlog (SPEC section 5: one or a few per environment).
    public var maxConnections = 4
    /// Backlog that warrants one more connection. A minute's sweep of 20,000 at 100 ms is short
    /// enough that its start and its depth decide it: on two connections (1,000 streams) it took
    /// 3.1-3.5 s, on four (1,500 in flight, 400 sent before the first answer) 2.5-3.1 s.
    public var pushesPerConnection = 5_000
    /// The most streams the client opens on one connection (CURLMOPT_MAX_CONCURRENT_STREAMS); the
    /// server's own limit applies below it. Past a few hundred, one connection's answers come in
    /// bursts that delay the next requests; more connections of fewer streams keep a steady flow.
    public var streamsPerConnection = 500
    /// Response bytes kept per push; APNs error bodies are a few dozen bytes.
    public var responseBodyLimit = 4096
    /// Seconds of idle before TCP keepalive probes (CURLOPT_TCP_KEEPIDLE / KEEPINTVL).
    public var keepaliveSeconds = 60

    /// Options for an explicit base URL (a stand-in, or a test server).
    public init(baseURL: String) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
    }

    /// Options for Apple's host of `environment`, reached at `connectTo` (APNS_HOST) when set.
    public init(environment: APNsEnvironment, connectTo: String? = nil) {
        self.init(baseURL: environment.appleBaseURL)
        self.connectTo = connectTo
    }

    /// The CURLOPT_CONNECT_TO entry: any host and port of the URL goes to `connectTo`.
    var connectToEntry: String? { connectTo.map { "::" + $0 } }
}
