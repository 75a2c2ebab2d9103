import APNsHTTP2
import LiveActivityDomain

/// The mass-deletion guard (SPEC section 5): BadDeviceToken and DeviceTokenNotForTopic from most
/// of an environment mean a wrong host, key or bundle id, not dead tokens, and deleting would
/// wipe every registration of that environment. It counts every final answer (a retried push
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

    private var counts: [APNsEnvironment: Counts] = [:]
    private var held: [APNsEnvironment: [(row: DueRegistration, write: OutcomeWrite, reason: String)]] = [:]
    /// Environments where this database ever had a push answered 200: never a fresh deployment.
    private let everDelivered: Set<APNsEnvironment>

    /// `everDelivered`: the database's history (`SweepStore.environmentsEverDelivered`).
    public init(everDelivered: Set<APNsEnvironment> = []) {
        self.everDelivered = everDelivered
    }

    static func isRejection(_ answer: APNsAnswer) -> Bool {
        guard let response = answer.response, response.status != 200 else { return false }
        return APNsReason.meaning(status: response.status, reason: response.reason) == .rejected
    }

    /// Counts the final answer to the push for `row` (not one that is about to be retried).
    public mutating func observe(_ answer: APNsAnswer, for row: DueRegistration) {
        guard let response = answer.response else { return }
        var count = counts[row.environment, default: Counts()]
        let rejected = Self.isRejection(answer)
        if row.proven {
            count.provenAnswered += 1
            if rejected { count.provenRejected += 1 }
        }
        if response.status == 200 { count.delivered += 1 }
        if rejected { count.rejected += 1 }
        counts[row.environment] = count
    }

    /// Holds the deletion `write` of `row`, asked for by `reason`.
    public mutating func hold(_ write: OutcomeWrite, reason: String, row: DueRegistration) {
        held[row.environment, default: []].append((row, write, reason))
    }

    /// Why the guard trips for an environment.
    public struct Trip: Equatable, Sendable {
        /// The operator's words for it.
        public var why: String
        /// No push there was ever answered 200: its held rows back off (`OutcomeRules.heldBackingOff`)
        /// rather than wait one interval, so junk a stranger registers costs a handful of pushes.
        public var freshDeployment: Bool
    }

    /// Why the guard trips for `environment`, nil when it does not.
    public func trip(in environment: APNsEnvironment) -> Trip? {
        let count = counts[environment] ?? Counts()
        if count.provenAnswered >= Self.minimumAnswers && count.provenRejected * 2 > count.provenAnswered {
            return Trip(
                why: "\(count.provenRejected) of \(count.provenAnswered) proven tokens were rejected", freshDeployment: false)
        }
        // Fresh: no 200 ever, in this sweep or before. An environment that once delivered and has
        // no real device due this sweep (a quiet sandbox, a production night) deletes its junk.
        if !everDelivered.contains(environment) && count.delivered == 0 && count.rejected >= Self.minimumAnswers {
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
        public var tally = SweepTally()
        /// The guard's own faults, one per environment where it tripped.
        public var faults: [SweepFault] = []
        /// Held deletions of environments that already had a fault: pushes it touched, by environment.
        public var touched: [APNsEnvironment: Int] = [:]
    }

    /// Rules on every held deletion, environment by environment. Where another fault (not an
    /// unreachable host) stopped the environment, its answers are suspect and nothing is deleted;
    /// where the guard trips, nothing is deleted either; each such row waits one interval.
    /// Otherwise the deletions go ahead.
    public func rule(faults: [APNsEnvironment: SweepFault], rules: OutcomeRules, now: Int64) -> Ruling {
        var ruling = Ruling()
        for (environment, deletions) in held.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            var fault: SweepFault
            var backsOff = false
            if let existing = faults[environment], existing.kind != .unreachable {
                fault = existing
                ruling.touched[environment] = deletions.count
            } else if let trip = trip(in: environment) {
                let reasons = Dictionary(deletions.map { ($0.reason, 1) }, uniquingKeysWith: +)
                let reason = reasons.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? "BadDeviceToken"
                fault = .raised(.guarded, reason: reason, in: environment)
                fault.advice = trip.why + "; " + fault.advice
                fault.pushes = deletions.count
                ruling.faults.append(fault)
                backsOff = trip.freshDeployment
            } else {
                for (_, write, reason) in deletions {
                    ruling.writes.append(write)
                    ruling.tally += .removed(reason)
                }
                continue
            }
            for (row, _, reason) in deletions {
                let (write, tally) =
                    backsOff ? rules.heldBackingOff(row, reason: reason, now: now) : rules.touched(row, by: fault, now: now)
                ruling.writes.append(write)
                ruling.tally += tally
            }
        }
        return ruling
    }
}
