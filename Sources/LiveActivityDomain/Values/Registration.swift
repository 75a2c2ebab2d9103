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
    public var requestedInterval: Int?

    public init(
        token: PushToken, activityType: ActivityType, environment: APNsEnvironment, registeredAt: Int64,
        expiresAt: Int64, nextPushAt: Int64, lastPushAt: Int64?, wakeupCount: Int64, consecutiveFailures: Int64,
        lastError: String?, requestedInterval: Int? = nil
    ) {
        self.token = token
        self.activityType = activityType
        self.environment = environment
        self.registeredAt = registeredAt
        self.expiresAt = expiresAt
        self.nextPushAt = nextPushAt
        self.lastPushAt = lastPushAt
        self.wakeupCount = wakeupCount
        self.consecutiveFailures = consecutiveFailures
        self.lastError = lastError
        self.requestedInterval = requestedInterval
    }
}
