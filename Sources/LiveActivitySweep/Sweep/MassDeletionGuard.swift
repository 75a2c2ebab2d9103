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
        ["BadDeviceToken", "DeviceTokenNotForTopic"].contains(answer.response?.reason)
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

    /// Why the guard trips for `environment`, nil when it does not.
    public func tripReason(in environment: APNsEnvironment) -> String? {
        let count = counts[environment] ?? Counts()
        if count.provenAnswered >= Self.minimumAnswers && count.provenRejected * 2 > count.provenAnswered {
            return "\(count.provenRejected) of \(count.provenAnswered) proven tokens were rejected"
        }
        // Fresh: no 200 ever, in this sweep or before. An environment that once delivered and has
        // no real device due this sweep (a quiet sandbox, a production night) deletes its junk.
        if !everDelivered.contains(environment) && count.delivered == 0 && count.rejected >= Self.minimumAnswers {
            return "no push got a 200 in this database's history and \(count.rejected) tokens were rejected "
                + "(a fresh deployment pointed at the wrong place?)"
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
            if let existing = faults[environment], existing.kind != .unreachable {
                fault = existing
                ruling.touched[environment] = deletions.count
            } else if let why = tripReason(in: environment) {
                let reasons = Dictionary(deletions.map { ($0.reason, 1) }, uniquingKeysWith: +)
                let reason = reasons.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? "BadDeviceToken"
                fault = .raised(.guarded, reason: reason, in: environment)
                fault.advice = why + "; " + fault.advice
                fault.pushes = deletions.count
                ruling.faults.append(fault)
            } else {
                for (_, write, reason) in deletions {
                    ruling.writes.append(write)
                    ruling.tally += .removed(reason)
                }
                continue
            }
            for (row, _, _) in deletions {
                let (write, tally) = rules.touched(row, by: fault, now: now)
                ruling.writes.append(write)
                ruling.tally += tally
            }
        }
        return ruling
    }
}
