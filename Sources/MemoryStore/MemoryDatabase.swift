import LiveActivityDomain
import LiveActivityStore
import SystemSupport

/// The data of a `MemoryEngine`: the state every connection shares, and the one lock that makes
/// a transaction exclusive (as SQLite's `BEGIN IMMEDIATE` does): a connection holds it for its
/// whole transaction, a statement outside one holds it for the statement.
final class MemoryDatabase: Sendable {
    private struct Shared {
        /// The connection holding the database, nil for none.
        var owner: ObjectIdentifier?
        var state = MemoryState()
    }

    private let shared = ConditionLock(Shared())

    /// Waits until no other connection holds the database, then holds it for `connection`.
    func acquire(for connection: AnyObject) {
        shared.withLock(when: { $0.owner == nil }, do: { $0.owner = ObjectIdentifier(connection) })
    }

    func release() {
        shared.withLock { $0.owner = nil }
        shared.broadcast()
    }

    /// `body` on the state, for the connection that holds the database (`acquire`).
    func owned<T>(_ body: (inout MemoryState) throws -> T) rethrows -> T {
        try shared.withLock { try body(&$0.state) }
    }

    /// `body` on the state, holding the database (for callers that are no connection).
    func exclusive<T>(_ body: (inout MemoryState) throws -> T) rethrows -> T {
        acquire(for: self)
        defer { release() }
        return try owned(body)
    }
}

/// Everything a database keeps, as plain values.
struct MemoryState {
    /// One push target as stored.
    struct Target {
        var facts: RegistrationFacts
        var token: PushToken
        var requestedInterval: Int?
        var nextPushAt: Int64
        var lastPushAt: Int64?
        var pushCount: Int64 = 0
        var failures: Int64 = 0
        var lastError: String?
        /// Newest first, at most `PushAttempt.kept`.
        var attempts: [PushAttempt] = []
        var waitingAckAt: Int64?
        var guardHolds: Int64 = 0
        var cadence: CadenceState = .base
        /// What an ack waiting on the row said of the data.
        var waitingChanged: Bool?
    }

    /// A recorded run.
    struct Run {
        var id: Int64
        var host: String
        var record: RunRecord
    }

    /// One hour's delivery figures of one app, kind, type and environment.
    struct Hour {
        var registrations: Int64 = 0
        var delivered: Int64 = 0
        var acked: Int64 = 0
        var delaySum: Int64 = 0
        var buckets = [Int64](repeating: 0, count: AckDelayBuckets.count)
    }

    struct HourKey: Hashable {
        var hour: Int64
        var kind: PushKind
        var activityType: ActivityType
        var environment: APNsEnvironment
        var app: AppName
    }

    /// Acks of one outcome and app (in one hour, or over the database's life).
    struct AckKey: Hashable {
        var outcome: String
        var app: AppName
    }

    /// Matched acks of one delay bucket and app.
    struct DelayKey: Hashable {
        var bucket: Int
        var app: AppName
    }

    struct FaultKey: Hashable {
        var environment: APNsEnvironment
        var pushKind: PushKind?
        var kind: SweepFault.Kind
        var reason: String
        var app: AppName
    }

    struct ReasonKey: Hashable {
        var category: RunReason.Category
        var kind: String
        var reason: String
    }

    var targets: [TargetKey: Target] = [:]
    var groups: [TargetGroup: (targets: Int64, unproven: Int64, wakeups: Int64)] = [:]
    var delivered: [PushScope: Int64] = [:]
    var runs: [Run] = []
    var nextRunID: Int64 = 1
    var lifetimeRuns: Int64 = 0
    var lifetimeExpired: Int64 = 0
    var kindTotals: [AppKind: (sent: Int64, failed: Int64, removed: Int64)] = [:]
    var reasonTotals: [ReasonKey: Int64] = [:]
    var faultTotals: [FaultKey: (runs: Int64, pushes: Int64, lastAt: Int64)] = [:]
    var withheldTotals: [WithheldWakes.Group: Int64] = [:]
    var hours: [HourKey: Hour] = [:]
    var ackHours: [Int64: [AckKey: Int64]] = [:]
    var ackTotals: [AckKey: (count: Int64, delaySum: Int64)] = [:]
    var ackDelays: [DelayKey: Int64] = [:]
    /// The APNs settings' fingerprint of each host's last sweep.
    var fingerprints: [String: String] = [:]
    var providerTokens: [String: ProviderToken] = [:]

    /// The targets of the registration `registration`, in the kinds' order.
    func targets(of registration: RegistrationKey) -> [(key: TargetKey, target: Target)] {
        PushKind.all.compactMap { kind in
            let key = TargetKey(registration, kind: kind)
            return targets[key].map { (key, $0) }
        }
    }

    /// `target` as the counters count it.
    static func counted(_ key: TargetKey, _ target: Target) -> CountedTarget {
        CountedTarget(
            kind: key.kind, activityType: target.facts.activityType, environment: target.facts.environment,
            proven: target.lastPushAt != nil, app: key.app, wakeups: target.pushCount)
    }
}
