import LiveActivityDomain

/// Targets that share their effective interval whatever the operator's bounds: one kind, one
/// activity type, one asked interval. What a statement over many targets is grouped by when the
/// interval rule (`IntervalPolicy`), applied above the engines, sets what it writes.
public struct IntervalGroup: Sendable, Hashable {
    public var kind: PushKind
    public var activityType: ActivityType
    public var requestedInterval: Int?

    public init(kind: PushKind, activityType: ActivityType, requestedInterval: Int?) {
        self.kind = kind
        self.activityType = activityType
        self.requestedInterval = requestedInterval
    }

    /// The effective interval of its targets, in milliseconds.
    public func intervalMilliseconds(_ policy: IntervalPolicy) -> Int64 {
        policy.effectiveMilliseconds(kind, activityType, requested: requestedInterval)
    }
}
