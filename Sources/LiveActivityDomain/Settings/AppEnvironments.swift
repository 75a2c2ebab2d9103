/// One app's APNs environments (SPEC 6): those its registrations may name (`APNS_ENVIRONMENTS`)
/// and the one a registration that names none goes to (`APNS_ENVIRONMENT`), each an app's own or
/// the default app's.
public struct AppEnvironments: Sendable, Equatable {
    public var enabled: [APNsEnvironment]
    public var defaultEnvironment: APNsEnvironment

    public init(enabled: [APNsEnvironment], defaultEnvironment: APNsEnvironment) {
        self.enabled = enabled
        self.defaultEnvironment = defaultEnvironment
    }
}
