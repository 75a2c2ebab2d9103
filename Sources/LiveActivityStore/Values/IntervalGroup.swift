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

extension IntervalGroup {
    /// A group read back (kind, type, asked interval: a row's first three columns), the same on
    /// every SQL engine; nil for a kind or type this build does not know, or an interval out of
    /// range (not `try?` on the interval: it flattens "none asked" into "out of range").
    public init?(stored row: some StoredRow) {
        guard let kind = row.text(0).flatMap(PushKind.init(name:)), let type = row.text(1).flatMap(ActivityType.init(rawValue:))
        else { return nil }
        let interval: Int?
        do { interval = try StoredValue.requestedInterval(row.optionalInt(2)) } catch { return nil }
        self.init(kind: kind, activityType: type, requestedInterval: interval)
    }
}
