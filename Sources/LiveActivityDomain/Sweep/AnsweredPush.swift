/// A final answer to a push, with what the figures need of its target and registration.
public struct AnsweredPush: Sendable, Equatable {
    /// The target pushed (its kind: which figures count it).
    public var key: TargetKey
    public var attempt: PushAttempt
    public var activityType: ActivityType
    public var environment: APNsEnvironment
    /// The target's last 200 before this push (nil: none). A 200 is its first of an hour when
    /// that one fell in an earlier hour: how registration-hours are counted.
    public var previousDeliveryAt: Int64?

    public init(
        key: TargetKey, attempt: PushAttempt, activityType: ActivityType, environment: APNsEnvironment,
        previousDeliveryAt: Int64?
    ) {
        self.key = key
        self.attempt = attempt
        self.activityType = activityType
        self.environment = environment
        self.previousDeliveryAt = previousDeliveryAt
    }

    public var kind: PushKind { key.kind }
}
