import APNsHTTP2
import LiveActivityCore

extension APNsClientOptions {
    /// The options SPEC section 6's settings ask for, for pushes to `environment` with `topic`
    /// (APNS_BUNDLE_ID): APNS_HOST overrides Apple's host, APNS_CA_FILE adds a trusted CA,
    /// LIVEACTIVITY_APNS_CONCURRENCY sets the in-flight window.
    public init(configuration: Configuration, environment: APNsEnvironment, topic: String) {
        self.init(environment: environment, topic: topic, baseURLOverride: configuration.apnsHost)
        caFile = configuration.apnsCAFile
        maxInFlight = configuration.apnsConcurrency
    }
}
