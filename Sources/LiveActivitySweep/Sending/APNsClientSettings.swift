import APNsHTTP2
import LiveActivityDomain

/// How the sweep reaches APNs (SPEC 6): `APNS_HOST` is where pushes go instead of Apple's hosts
/// (they still name Apple's hosts: the stand-in tells the environments apart by them), `APNS_CA_FILE` adds a
/// trusted CA, `LIVEACTIVITY_APNS_CONCURRENCY` caps the pushes in flight per environment (the
/// client otherwise keeps as many as the server allows, up to its own default) and
/// `LIVEACTIVITY_APNS_TIMEOUT` the seconds one push may take. The one place client options are
/// made from settings.
public struct APNsClientSettings: Sendable, Equatable {
    /// `host:port` connected to instead of both Apple hosts (the local stand-in), from `APNS_HOST`.
    public var connectTo: String?
    public var caFile: String?
    /// The most pushes in flight at once per environment; nil: the client's default.
    public var concurrency: Int?
    /// Seconds one push may take before it counts as a transport failure.
    public var timeoutSeconds = 30

    /// The client's own default is the most it keeps in flight.
    public static let maxConcurrency = APNsClientOptions.mostInFlight

    /// Defaults only.
    public init() {}

    /// Reads the settings; a malformed one is an error naming it.
    public init(settings: Settings) throws(ConfigurationError) {
        if let host = settings.text("APNS_HOST") {
            guard let address = Self.address(ofBaseURL: host) else {
                throw .malformed(name: "APNS_HOST", expected: "a base URL such as https://127.0.0.1:8443")
            }
            connectTo = address
        }
        caFile = settings.text("APNS_CA_FILE")
        if let window = try settings.integer("LIVEACTIVITY_APNS_CONCURRENCY", in: 1...Self.maxConcurrency) {
            concurrency = window
        }
        if let timeout = try settings.integer("LIVEACTIVITY_APNS_TIMEOUT", in: 1...600) { timeoutSeconds = timeout }
    }

    /// The client options for pushes to `environment` (each push names its app's bundle id).
    public func options(for environment: APNsEnvironment) -> APNsClientOptions {
        var options = APNsClientOptions(environment: environment, connectTo: connectTo)
        options.caFile = caFile
        if let concurrency { options.maxInFlight = concurrency }
        options.requestTimeout = Double(timeoutSeconds)
        options.connectTimeout = Double(min(10, timeoutSeconds))
        return options
    }

    /// `https://host[:port][/]` -> `host:port` (443 by default); an IPv6 host keeps its brackets.
    static func address(ofBaseURL url: String) -> String? {
        guard url.hasPrefix("https://") else { return nil }
        var rest = url.dropFirst("https://".count)
        while rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.isEmpty, !rest.contains("/"), !rest.contains("@"), !rest.contains(where: \.isWhitespace) else { return nil }
        let host: Substring
        var port: Substring = "443"
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[...close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                port = after.dropFirst()
            }
        } else if let colon = rest.firstIndex(of: ":") {
            host = rest[..<colon]
            port = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        guard host.count > (host.hasPrefix("[") ? 2 : 0), let number = Int(port), (1...65535).contains(number) else { return nil }
        return "\(host):\(number)"
    }
}
