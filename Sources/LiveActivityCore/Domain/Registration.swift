/// One stored registration (SPEC section 4). Times are Unix milliseconds.
public struct Registration: Equatable, Sendable {
    public var token: PushToken
    public var activityType: ActivityType
    public var environment: APNsEnvironment
    public var registeredAt: Int64
    public var expiresAt: Int64
    public var nextPushAt: Int64
    public var lastPushAt: Int64?
    public var wakeupCount: Int64
    public var consecutiveFailures: Int64
    public var lastError: String?
    /// The seconds the app asked for (SPEC 3 `interval`), nil for none.
    public var requestedInterval: Int? = nil
}
