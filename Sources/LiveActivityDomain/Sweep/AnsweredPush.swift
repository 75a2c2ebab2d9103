/// A final answer to a push, with what the figures need of its registration.
public struct AnsweredPush: Sendable, Equatable {
    public var attempt: PushAttempt
    public var activityType: ActivityType
    public var environment: APNsEnvironment
    /// The registration's last 200 before this push (nil: none). A 200 is its first of an
    /// hour when that one fell in an earlier hour: how registration-hours are counted.
    public var previousDeliveryAt: Int64?

    public init(attempt: PushAttempt, activityType: ActivityType, environment: APNsEnvironment, previousDeliveryAt: Int64?) {
        self.attempt = attempt
        self.activityType = activityType
        self.environment = environment
        self.previousDeliveryAt = previousDeliveryAt
    }
}
