import LiveActivityCore

/// What answers add to a sweep's counts: pushes delivered and failed, and why pushes failed or
/// registrations were removed. One value, added to the summary as each decision is made.
public struct SweepTally: Equatable, Sendable {
    public var sent = 0
    public var failed = 0
    /// Why pushes failed (the registration kept), with counts.
    public var failureReasons: [String: Int] = [:]
    /// Why registrations were removed (410, BadDeviceToken), with counts.
    public var removalReasons: [String: Int] = [:]

    public init(sent: Int = 0, failed: Int = 0, failureReasons: [String: Int] = [:], removalReasons: [String: Int] = [:]) {
        self.sent = sent
        self.failed = failed
        self.failureReasons = failureReasons
        self.removalReasons = removalReasons
    }

    /// One push delivered.
    public static let delivered = SweepTally(sent: 1)

    /// One push failed for `reason`; its registration is kept.
    public static func failed(_ reason: String) -> SweepTally { SweepTally(failed: 1, failureReasons: [reason: 1]) }

    /// One registration removed (or about to be) for `reason`.
    public static func removed(_ reason: String) -> SweepTally { SweepTally(removalReasons: [reason: 1]) }

    /// A fault's reason, counted once; no push is counted as failed for it.
    public static func fault(_ reason: String) -> SweepTally { SweepTally(failureReasons: [reason: 1]) }

    public static func += (tally: inout SweepTally, other: SweepTally) {
        tally.sent += other.sent
        tally.failed += other.failed
        tally.failureReasons.merge(other.failureReasons, uniquingKeysWith: +)
        tally.removalReasons.merge(other.removalReasons, uniquingKeysWith: +)
    }
}

extension SweepSummary {
    /// Adds what some answers counted.
    mutating func add(_ tally: SweepTally) {
        sent += tally.sent
        failed += tally.failed
        failureReasons.merge(tally.failureReasons, uniquingKeysWith: +)
        removalReasons.merge(tally.removalReasons, uniquingKeysWith: +)
    }
}
