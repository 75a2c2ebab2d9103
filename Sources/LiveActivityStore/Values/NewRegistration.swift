import LiveActivityDomain

/// A registration as the API writes it (SPEC 3): stored new, or refreshing the stored one.
public struct NewRegistration: Sendable, Equatable {
    public var token: PushToken
    public var activityType: ActivityType
    public var environment: APNsEnvironment
    /// Now (Unix ms): also its next push, so the first push goes out at the next sweep.
    public var registeredAt: Int64
    public var expiresAt: Int64
    /// The seconds the app asked for, nil for none (a refresh without one clears it).
    public var requestedInterval: Int?

    public init(
        token: PushToken, activityType: ActivityType, environment: APNsEnvironment, registeredAt: Int64, expiresAt: Int64,
        requestedInterval: Int? = nil
    ) {
        self.token = token
        self.activityType = activityType
        self.environment = environment
        self.registeredAt = registeredAt
        self.expiresAt = expiresAt
        self.requestedInterval = requestedInterval
    }
}

/// How many registrations are stored, and how many of them were never answered 200: from
/// counters the database keeps as rows come and go, never a scan (SPEC 3's caps).
public struct RegistrationCounts: Sendable, Equatable {
    public var total: Int
    public var unproven: Int

    public init(total: Int, unproven: Int) {
        self.total = total
        self.unproven = unproven
    }
}
