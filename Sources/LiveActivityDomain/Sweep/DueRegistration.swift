/// A registration selected for pushing: what the sweep's rules decide about, read a page at a
/// time in the due order (`DuePosition`).
public struct DueRegistration: Sendable, Equatable {
    public var token: PushToken
    public var activityType: ActivityType
    public var environment: APNsEnvironment
    public var registeredAt: Int64
    /// Whether APNs ever accepted a push to it (a 200; a re-registration keeps this): what the
    /// mass-deletion guard counts, so tokens a stranger made up cannot trip it (SPEC 5).
    public var proven: Bool
    /// Failures in a row before this push, which set the back-off after another one.
    public var failures: Int
    /// When it was due: with the token, its place in the due order.
    public var nextPushAt: Int64
    /// The seconds the app asked for (SPEC 3 `interval`), nil for none.
    public var requestedInterval: Int?
    /// Its last 200 before this sweep (the hourly figures count registration-hours by it).
    public var lastPushAt: Int64?
    /// Times the mass-deletion guard held it as a fresh deployment's junk (SPEC 5).
    public var guardHolds: Int

    public init(
        token: PushToken, activityType: ActivityType, environment: APNsEnvironment, registeredAt: Int64,
        proven: Bool = false, failures: Int = 0, nextPushAt: Int64 = 0, requestedInterval: Int? = nil,
        lastPushAt: Int64? = nil, guardHolds: Int = 0
    ) {
        self.token = token
        self.activityType = activityType
        self.environment = environment
        self.registeredAt = registeredAt
        self.proven = proven
        self.failures = failures
        self.nextPushAt = nextPushAt
        self.requestedInterval = requestedInterval
        self.lastPushAt = lastPushAt
        self.guardHolds = guardHolds
    }

    /// Its place in the due order.
    public var position: DuePosition { DuePosition(nextPushAt: nextPushAt, token: token) }
}
