import APNsHTTP2
import LiveActivityDomain

/// The mass-deletion guard (SPEC section 5): BadDeviceToken and DeviceTokenNotForTopic from most
/// of an environment's pushes of one kind mean a wrong host, key, bundle id or topic, not dead
/// tokens, and deleting would wipe every target of that scope. It judges each environment and
/// kind apart (`PushScope`): a wrong widgets topic holds the widgets targets, and wakes go on. It counts every final answer (a retried push
/// once), holds the deletions those two reasons ask for, and rules on them once the sweep has
/// all its answers. It counts *proven* tokens (ones that once got a 200), so junk tokens a
/// stranger registers cannot trip it: they are deleted while real tokens keep getting 200s. Its
/// "fresh deployment" rule asks the database's history, not this sweep alone: an environment
/// that ever delivered deletes junk even when no real device is due.
public struct MassDeletionGuard: Sendable {
    /// The guard needs at least this many such answers from one environment before it trips.
    public static let minimumAnswers = 10

    struct Counts: Sendable {
        var provenAnswered = 0
        var provenRejected = 0
        var delivered = 0
        var rejected = 0
    }

    private var counts: [PushScope: Counts] = [:]
    private var held: [PushScope: [(row: DueTarget, write: OutcomeWrite, reason: String)]] = [:]
    /// Scopes where this database ever had a push answered 200: never a fresh deployment.
    private let everDelivered: Set<PushScope>

    /// `everDelivered`: the database's history (`SweepStatements.scopesEverDelivered`).
    public init(everDelivered: Set<PushScope> = []) {
        self.everDelivered = everDelivered
    }

    static func isRejection(_ answer: APNsAnswer) -> Bool {
        guard let response = answer.response, response.status != 200 else { return false }
        return APNsReason.meaning(status: response.status, reason: response.reason) == .rejected
    }

    /// Counts the final answer to the push for `row` (not one that is about to be retried).
    public mutating func observe(_ answer: APNsAnswer, for row: DueTarget) {
        guard let response = answer.response else { return }
        var count = counts[row.scope, default: Counts()]
        let rejected = Self.isRejection(answer)
        if row.proven {
            count.provenAnswered += 1
            if rejected { count.provenRejected += 1 }
        }
        if response.status == 200 { count.delivered += 1 }
        if rejected { count.rejected += 1 }
        counts[row.scope] = count
    }

    /// Holds the deletion `write` of `row`, asked for by `reason`.
    public mutating func hold(_ write: OutcomeWrite, reason: String, row: DueTarget) {
        held[row.scope, default: []].append((row, write, reason))
    }

    /// Why the guard trips for an environment.
    public struct Trip: Equatable, Sendable {
        /// The operator's words for it.
        public var why: String
        /// No push there was ever answered 200: its held rows back off (`OutcomeRules.heldBackingOff`)
        /// rather than wait one interval, so junk a stranger registers costs a handful of pushes.
        public var freshDeployment: Bool
    }

    /// Why the guard trips for `scope`, nil when it does not.
    public func trip(in scope: PushScope) -> Trip? {
        let count = counts[scope] ?? Counts()
        if count.provenAnswered >= Self.minimumAnswers && count.provenRejected * 2 > count.provenAnswered {
            return Trip(
                why: "\(count.provenRejected) of \(count.provenAnswered) proven tokens were rejected", freshDeployment: false)
        }
        // Fresh: no 200 ever, in this sweep or before. An environment that once delivered and has
        // no real device due this sweep (a quiet sandbox, a production night) deletes its junk.
        if !everDelivered.contains(scope) && count.delivered == 0 && count.rejected >= Self.minimumAnswers {
            let why =
                "no push got a 200 in this database's history and \(count.rejected) tokens were rejected "
                + "(a fresh deployment pointed at the wrong place?)"
            return Trip(why: why, freshDeployment: true)
        }
        return nil
    }

    /// The ruling on the held deletions.
    public struct Ruling: Equatable, Sendable {
        /// Deletions let through, or holds written instead of them.
        public var writes: [OutcomeWrite] = []
        /// Per app and kind: what the deletions let through and the holds counted.
        public var tallies: [AppKind: SweepTally] = [:]
        /// The guard's own faults, one per scope where it tripped.
        public var faults: [SweepFault] = []
        /// Held deletions of scopes that already had a fault: pushes it touched, by that fault's scope.
        public var touched: [FaultScope: Int] = [:]
    }

    /// Rules on every held deletion, scope by scope. Where another fault (not an unreachable
    /// host) stopped the scope, its answers are suspect and nothing is deleted; where the guard
    /// trips, nothing is deleted either; each such target waits one interval. Otherwise the
    /// deletions go ahead.
    public func rule(faults: [FaultScope: SweepFault], rules: OutcomeRules, now: Int64) -> Ruling {
        var ruling = Ruling()
        for (scope, deletions) in held.sorted(by: { PushScope.ordered($0.key, $1.key) }) {
            var fault: SweepFault
            var backsOff = false
            // The environment's fault, else the kind's: an unreachable host hides neither's answers.
            let existing = [faults[scope.faultScope.wholeEnvironment], faults[scope.faultScope]]
                .compactMap { $0 }.first { $0.kind != .unreachable }
            if let existing {
                fault = existing
                ruling.touched[existing.scope, default: 0] += deletions.count
            } else if let trip = trip(in: scope) {
                let reasons = Dictionary(deletions.map { ($0.reason, 1) }, uniquingKeysWith: +)
                let reason = reasons.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? "BadDeviceToken"
                // The guard's fault is its scope's: a wrong widgets topic holds widgets alone.
                fault = SweepFault(
                    environment: scope.environment, pushKind: scope.kind == .wake ? nil : scope.kind, kind: .guarded,
                    reason: reason, advice: trip.why + "; " + APNsReason.advice(.guarded, reason: reason), app: scope.app)
                fault.pushes = deletions.count
                fault.backsOff = trip.freshDeployment
                backsOff = trip.freshDeployment
            } else {
                for (_, write, reason) in deletions {
                    ruling.writes.append(write)
                    ruling.tallies[AppKind(scope.kind, of: scope.app), default: SweepTally()] += .removed(reason)
                }
                continue
            }
            for (row, _, reason) in deletions {
                let (write, tally) =
                    backsOff ? rules.heldBackingOff(row, reason: reason, now: now) : rules.touched(row, by: fault, now: now)
                if case .delete = write { fault.removed += 1 }
                ruling.writes.append(write)
                ruling.tallies[AppKind(scope.kind, of: scope.app), default: SweepTally()] += tally
            }
            // The guard's own fault, with what its holds did; another fault's was counted above.
            if existing == nil { ruling.faults.append(fault) }
        }
        return ruling
    }
}
