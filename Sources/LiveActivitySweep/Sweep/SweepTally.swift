import LiveActivityDomain

/// What answers add to a sweep's counts of one app's push kind: pushes delivered, failed and held
/// by a fault, and why pushes failed or targets were removed. One value, added to the summary
/// under its app and kind as each decision is made (the decision's target says which).
public struct SweepTally: Equatable, Sendable {
    public var sent = 0
    public var failed = 0
    public var held = 0
    /// Why pushes failed (the registration kept), with counts.
    public var failureReasons: [String: Int] = [:]
    /// Why registrations were removed (410, BadDeviceToken), with counts.
    public var removalReasons: [String: Int] = [:]

    public init(
        sent: Int = 0, failed: Int = 0, held: Int = 0, failureReasons: [String: Int] = [:], removalReasons: [String: Int] = [:]
    ) {
        self.sent = sent
        self.failed = failed
        self.held = held
        self.failureReasons = failureReasons
        self.removalReasons = removalReasons
    }

    /// One push delivered.
    public static let delivered = SweepTally(sent: 1)

    /// One push failed for `reason`; its registration is kept.
    public static func failed(_ reason: String) -> SweepTally { SweepTally(failed: 1, failureReasons: [reason: 1]) }

    /// One registration removed (or about to be) for `reason`.
    public static func removed(_ reason: String) -> SweepTally { SweepTally(removalReasons: [reason: 1]) }

    /// One registration kept by a fault of its environment (its reason is the fault's, reported once).
    public static let held = SweepTally(held: 1)

    public static func += (tally: inout SweepTally, other: SweepTally) {
        tally.sent += other.sent
        tally.failed += other.failed
        tally.held += other.held
        tally.failureReasons.merge(other.failureReasons, uniquingKeysWith: +)
        tally.removalReasons.merge(other.removalReasons, uniquingKeysWith: +)
    }

    /// Takes back what `other` added (a failure the run later counts as held instead).
    public static func -= (tally: inout SweepTally, other: SweepTally) {
        tally.sent -= other.sent
        tally.failed -= other.failed
        tally.held -= other.held
        for (reason, count) in other.failureReasons { tally.failureReasons[reason, default: 0] -= count }
        for (reason, count) in other.removalReasons { tally.removalReasons[reason, default: 0] -= count }
        tally.failureReasons = tally.failureReasons.filter { $0.value != 0 }
        tally.removalReasons = tally.removalReasons.filter { $0.value != 0 }
    }
}

extension SweepSummary {
    /// Adds what some answers to pushes of an app's kind counted.
    mutating func add(_ tally: SweepTally, of key: AppKind) {
        var counts = self[key.kind, of: key.app]
        counts.sent += tally.sent
        counts.failed += tally.failed
        counts.held += tally.held
        counts.failureReasons.merge(tally.failureReasons, uniquingKeysWith: +)
        counts.removalReasons.merge(tally.removalReasons, uniquingKeysWith: +)
        self[key.kind, of: key.app] = counts
    }
}

/// A sweep's tallies, one per app and push kind.
struct SweepTallies: Equatable, Sendable {
    private(set) var byAppKind: [AppKind: SweepTally] = [:]

    subscript(_ key: AppKind) -> SweepTally {
        get { byAppKind[key] ?? SweepTally() }
        set { byAppKind[key] = newValue }
    }

    /// The default app's tally of `kind`.
    subscript(_ kind: PushKind) -> SweepTally {
        get { self[AppKind(kind)] }
        set { self[AppKind(kind)] = newValue }
    }

    mutating func add(_ tally: SweepTally, of key: AppKind) { self[key] += tally }

    static func += (tallies: inout SweepTallies, other: SweepTallies) {
        for (key, tally) in other.byAppKind { tallies[key] += tally }
    }
}
