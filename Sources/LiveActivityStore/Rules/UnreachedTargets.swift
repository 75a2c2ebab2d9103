import LiveActivityDomain

/// The targets a fault of `scope` stopped before the sweep reached them (SPEC 5), written once
/// for every engine: still due at `cutoff`, registered at or before the run's `start`, never
/// answered 200 or not since the run began. The SQL engines filter with `sql`; the memory
/// engine with `matches`.
public struct UnreachedTargets: Sendable {
    public var scope: FaultScope
    public var cutoff: Int64
    public var start: Int64

    public init(scope: FaultScope, dueAtOrBefore cutoff: Int64, registeredAtOrBefore start: Int64) {
        self.scope = scope
        self.cutoff = cutoff
        self.start = start
    }

    /// Whether the target `key`, with these stored fields, is one of them.
    public func matches(
        _ key: TargetKey, environment: APNsEnvironment, nextPushAt: Int64, registeredAt: Int64, lastPushAt: Int64?
    ) -> Bool {
        scope.covers(key.app, environment, key.kind) && nextPushAt <= cutoff && registeredAt <= start
            && (lastPushAt.map { $0 < start } ?? true)
    }
}
