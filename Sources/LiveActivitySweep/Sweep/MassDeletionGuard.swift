import APNsHTTP2
import LiveActivityCore

/// The mass-deletion guard (SPEC section 5): BadDeviceToken from most of an environment means a
/// wrong host or key for it, not dead tokens, and deleting would wipe every registration of that
/// environment. It watches every answer, holds the deletions BadDeviceToken and
/// DeviceTokenNotForTopic ask for, and rules on them once the sweep has all its answers.
public struct MassDeletionGuard: Sendable {
    /// The guard needs at least this many answers from one environment before it trips.
    public static let minimumAnswers = 10

    private var answered: [APNsEnvironment: Int] = [:]
    private var badDeviceTokens: [APNsEnvironment: Int] = [:]
    private var held: [APNsEnvironment: [(write: SweepStore.Write, reason: String)]] = [:]

    public init() {}

    /// Counts `answer` to the push for `row`: every HTTP answer, and BadDeviceToken ones apart.
    public mutating func observe(_ answer: APNsAnswer, for row: SweepStore.Due) {
        guard let response = answer.response else { return }
        answered[row.environment, default: 0] += 1
        if response.status == 400 && response.reason == "BadDeviceToken" {
            badDeviceTokens[row.environment, default: 0] += 1
        }
    }

    /// Holds a deletion `write` of a registration in `environment`, asked for by `reason`.
    public mutating func hold(_ write: SweepStore.Write, reason: String, environment: APNsEnvironment) {
        held[environment, default: []].append((write, reason))
    }

    /// The ruling on the held deletions.
    public struct Ruling: Equatable, Sendable {
        /// Deletions let through, or failures recorded instead of them.
        public var writes: [SweepStore.Write] = []
        public var tally = SweepTally()
        /// The fault that stops the sweep: the one given, else the guard's own if it tripped.
        public var fault: String?
    }

    /// Rules on every held deletion, environment by environment, after the sweep's other `fault`
    /// (if any): where the guard trips, nothing is deleted and each becomes a failure; otherwise
    /// the deletions go ahead - unless a fault stopped the sweep, when they are simply dropped.
    public func rule(after fault: String?) -> Ruling {
        var ruling = Ruling(fault: fault)
        for (environment, deletions) in held.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let total = answered[environment] ?? 0
            let bad = badDeviceTokens[environment] ?? 0
            if total >= Self.minimumAnswers && bad * 2 > total {
                ruling.fault =
                    ruling.fault
                    ?? "\(bad) of \(total) pushes to \(environment.rawValue) answered BadDeviceToken: wrong APNs host or key for that environment? Nothing was deleted for it."
                for (write, reason) in deletions {
                    ruling.writes.append(.failed(write.token, reason: reason, nextPushAt: nil))
                    ruling.tally += .failed(reason)
                }
            } else if ruling.fault == nil {
                for (write, reason) in deletions {
                    ruling.writes.append(write)
                    ruling.tally += .removed(reason)
                }
            }
        }
        return ruling
    }
}
