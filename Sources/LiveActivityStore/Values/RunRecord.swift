import LiveActivityDomain

/// What a run adds to the run history and to the lifetime totals (SPEC 7: totals that never go
/// down, whatever the history's pruning): the run, its counts per app and kind, its reasons and faults,
/// from its summary, once for every engine. An engine inserts these rows and adds the same
/// numbers to its totals in one transaction; no trigger of its own does it.
public struct RunRecord: Sendable, Equatable {
    public var startedAt: Int64
    public var durationMilliseconds: Int64
    public var expired: Int64
    public var outcome: RunOutcome

    /// One app's counts of one kind: the default app's wakes always, another app and kind where
    /// the run had its targets.
    public struct KindCounts: Sendable, Equatable {
        public var kind: PushKind
        public var app: AppName
        public var active: Int64
        public var sent: Int64
        public var skipped: Int64
        public var failed: Int64
        public var removed: Int64
        public var held: Int64
    }

    /// A reason of one kind, summed over the apps.
    public struct Reason: Sendable, Equatable {
        public var category: RunReason.Category
        public var kind: PushKind
        public var reason: String
        public var count: Int64
    }

    /// A fault as the history keeps it: its scope (`pushKind` nil for the whole environment), at
    /// most one per app, environment, kind of push and kind of fault.
    public struct Fault: Sendable, Equatable {
        public var app: AppName
        public var environment: APNsEnvironment
        public var pushKind: PushKind?
        public var kind: SweepFault.Kind
        public var reason: String
        public var pushes: Int64

        /// The stored name of `pushKind`: empty for the whole environment.
        public var pushKindName: String { pushKind?.name ?? "" }
    }

    public var kinds: [KindCounts]
    public var reasons: [Reason]
    public var faults: [Fault]
    /// The wakes the cadence withheld, per app, type, environment and reason, in their order.
    public var withheld: [WithheldWakes]

    public init(_ summary: SweepSummary) {
        startedAt = summary.startedAt
        durationMilliseconds = summary.durationMilliseconds
        expired = Int64(summary.expired)
        outcome = summary.outcome
        let keys = Set(summary.counts.keys).union([AppKind(.wake)]).sorted(by: AppKind.ordered)
        kinds = keys.map { key in
            let counts = summary[key.kind, of: key.app]
            return KindCounts(
                kind: key.kind, app: key.app, active: Int64(counts.active), sent: Int64(counts.sent),
                skipped: Int64(counts.skipped), failed: Int64(counts.failed), removed: Int64(counts.removed),
                held: Int64(counts.held))
        }
        // The reasons are kept per kind, every app's together.
        reasons = PushKind.all.flatMap { kind -> [Reason] in
            let counts = keys.filter { $0.kind == kind }.map { summary[$0.kind, of: $0.app] }
            return [
                (RunReason.Category.failed, counts.map(\.failureReasons)), (.removed, counts.map(\.removalReasons)),
            ].flatMap { category, lists in
                lists.reduce(into: [String: Int]()) { sums, list in sums.merge(list, uniquingKeysWith: +) }
                    .sorted { $0.key < $1.key }.map {
                        Reason(category: category, kind: kind, reason: $0.key, count: Int64($0.value))
                    }
            }
        }
        var faults: [Fault] = []
        for fault in summary.faults {
            let kept = Fault(
                app: fault.app, environment: fault.environment, pushKind: fault.pushKind, kind: fault.kind,
                reason: fault.reason, pushes: Int64(fault.pushes))
            // One per scope and kind of fault: a later one of the same stands.
            faults.removeAll {
                $0.app == kept.app && $0.environment == kept.environment && $0.pushKind == kept.pushKind && $0.kind == kept.kind
            }
            faults.append(kept)
        }
        self.faults = faults
        withheld = WithheldWakes.listed(summary.withheld.map { ($0.key, Int64($0.value)) })
    }
}
