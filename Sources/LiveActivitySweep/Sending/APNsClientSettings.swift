import APNsHTTP2
import LiveActivityCore

/// How the sweep reaches APNs (SPEC 6): `APNS_HOST` overrides Apple's hosts, `APNS_CA_FILE` adds a
/// trusted CA, `LIVEACTIVITY_APNS_CONCURRENCY` is the in-flight window and
/// `LIVEACTIVITY_APNS_TIMEOUT` the seconds one push may take. The one place client options are
/// made from settings.
public struct APNsClientSettings: Sendable, Equatable {
    /// Base URL replacing both Apple hosts (the local stand-in), without a trailing slash.
    public var host: String?
    public var caFile: String?
    /// Pushes in flight at once per connection.
    public var concurrency = 100
    /// Seconds one push may take before it counts as a transport failure.
    public var timeoutSeconds = 30

    /// Defaults only.
    public init() {}

    /// Reads the settings; a malformed one is an error naming it.
    public init(settings: Settings) throws(ConfigurationError) {
        if let host = settings.text("APNS_HOST") {
            guard host.hasPrefix("https://"), host.count > 8 else {
                throw .malformed(name: "APNS_HOST", expected: "a base URL such as https://127.0.0.1:8443")
            }
            self.host = host.hasSuffix("/") ? String(host.dropLast()) : host
        }
        caFile = settings.text("APNS_CA_FILE")
        if let window = try settings.integer("LIVEACTIVITY_APNS_CONCURRENCY", in: 1...1000) { concurrency = window }
        if let timeout = try settings.integer("LIVEACTIVITY_APNS_TIMEOUT", in: 1...600) { timeoutSeconds = timeout }
    }

    /// The client options for pushes to `environment` with `topic` (APNS_BUNDLE_ID).
    public func options(for environment: APNsEnvironment, topic: String) -> APNsClientOptions {
        var options = APNsClientOptions(environment: environment, topic: topic, baseURLOverride: host)
        options.caFile = caFile
        options.maxInFlight = concurrency
        options.requestTimeout = Double(timeoutSeconds)
        options.connectTimeout = Double(min(10, timeoutSeconds))
        return options
    }
}
