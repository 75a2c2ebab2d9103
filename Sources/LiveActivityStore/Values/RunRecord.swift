import LiveActivityDomain

/// What a run adds to the run history and to the lifetime totals (SPEC 7: totals that never go
/// down, whatever the history's pruning): the run, its counts per kind, its reasons and faults,
/// from its summary, once for every engine. An engine inserts these rows and adds the same
/// numbers to its totals in one transaction; no trigger of its own does it.
public struct RunRecord: Sendable, Equatable {
    public var startedAt: Int64
    public var durationMilliseconds: Int64
    public var expired: Int64
    public var outcome: String

    /// One kind's counts: the wake kind always, another kind where the run had its targets.
    public struct KindCounts: Sendable, Equatable {
        public var kind: PushKind
        public var active: Int64
        public var sent: Int64
        public var skipped: Int64
        public var failed: Int64
        public var removed: Int64
        public var held: Int64
    }

    public struct Reason: Sendable, Equatable {
        public var category: RunReason.Category
        public var kind: PushKind
        public var reason: String
        public var count: Int64
    }

    /// A fault as the history keeps it: its scope's names (`pushKind` empty for the whole
    /// environment), at most one per app, environment, kind of push and kind of fault.
    public struct Fault: Sendable, Equatable {
        public var app: String
        public var environment: String
        public var pushKind: String
        public var kind: String
        public var reason: String
        public var pushes: Int64
    }

    public var kinds: [KindCounts]
    public var reasons: [Reason]
    public var faults: [Fault]

    public init(_ summary: SweepSummary) {
        startedAt = summary.startedAt
        durationMilliseconds = summary.durationMilliseconds
        expired = Int64(summary.expired)
        outcome = summary.outcome
        // Every app's counts of a kind together (the history keeps no app yet).
        let present = Set(summary.counts.keys.map(\.kind))
        kinds = PushKind.all.filter { $0 == .wake || present.contains($0) }.map { kind in
            let all = summary.counts.filter { $0.key.kind == kind }.values
            func sum(_ count: KeyPath<SweepCounts, Int>) -> Int64 { Int64(all.map { $0[keyPath: count] }.reduce(0, +)) }
            return KindCounts(
                kind: kind, active: sum(\.active), sent: sum(\.sent), skipped: sum(\.skipped), failed: sum(\.failed),
                removed: sum(\.removed), held: sum(\.held))
        }
        reasons = kinds.flatMap { entry -> [Reason] in
            let all = summary.counts.filter { $0.key.kind == entry.kind }.values
            let failures = all.reduce(into: [String: Int]()) { $0.merge($1.failureReasons, uniquingKeysWith: +) }
            let removals = all.reduce(into: [String: Int]()) { $0.merge($1.removalReasons, uniquingKeysWith: +) }
            return [(RunReason.Category.failed, failures), (.removed, removals)].flatMap { category, list in
                list.sorted { $0.key < $1.key }.map {
                    Reason(category: category, kind: entry.kind, reason: $0.key, count: Int64($0.value))
                }
            }
        }
        var faults: [Fault] = []
        for fault in summary.faults {
            let kept = Fault(
                app: fault.app.rawValue, environment: fault.environment.rawValue, pushKind: fault.pushKind?.name ?? "",
                kind: fault.kind.rawValue,
                reason: fault.reason, pushes: Int64(fault.pushes))
            // One per scope and kind of fault: a later one of the same stands.
            faults.removeAll {
                $0.app == kept.app && $0.environment == kept.environment && $0.pushKind == kept.pushKind && $0.kind == kept.kind
            }
            faults.append(kept)
        }
        self.faults = faults
    }
}
