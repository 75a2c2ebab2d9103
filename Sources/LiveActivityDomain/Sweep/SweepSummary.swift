/// The counts of one sweep, printed as one line and kept in `sweep_runs` (SPEC section 5 step 7).
public struct SweepSummary: Equatable, Sendable {
    public var startedAt: Int64 = 0
    public var durationMilliseconds: Int64 = 0
    /// Registrations present after expiry.
    public var active = 0
    public var sent = 0
    /// Active but not yet due.
    public var skipped = 0
    public var expired = 0
    public var removed = 0
    public var failed = 0
    /// Kept untried or set aside by a fault of their environment (waiting one interval).
    public var held = 0
    /// Left for the next run: not sent before the time budget ran out or the sweep was stopped.
    public var deferred = 0
    /// Why pushes failed (kept for a later sweep), with counts.
    public var failureReasons: [String: Int] = [:]
    /// Why registrations were removed (410, BadDeviceToken), with counts.
    public var removalReasons: [String: Int] = [:]
    /// The faults that stopped sending to an environment (one per environment), then the
    /// mass-deletion guard's (one per environment where it held deletions).
    public var faults: [SweepFault] = []

    public init() {}

    /// Whether the run exits non-zero: a fault other than an unreachable host.
    public var failsTheRun: Bool { faults.contains(where: \.failsTheRun) }

    /// `ok`, or the faults, for the run history.
    public var outcome: String {
        guard !faults.isEmpty else { return "ok" }
        return "faults: "
            + faults.map { "\($0.environment.rawValue) \($0.kind.rawValue) \($0.reason) (\($0.pushes) pushes)" }
            .joined(separator: "; ")
    }

    public var line: String {
        var text =
            "sweep: active=\(active) sent=\(sent) skipped=\(skipped) expired=\(expired) removed=\(removed) failed=\(failed) duration=\(Self.seconds(durationMilliseconds))s"
        for (label, count) in [("held", held), ("deferred", deferred)] where count > 0 { text += " \(label)=\(count)" }
        for (label, reasons) in [("failures", failureReasons), ("removals", removalReasons)] where !reasons.isEmpty {
            text += " \(label)=" + reasons.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",")
        }
        if !faults.isEmpty { text += " faults=" + faults.map(\.summary).joined(separator: ",") }
        return text
    }

    package static func seconds(_ milliseconds: Int64) -> String {
        let tenths = milliseconds.addingSaturated(50) / 100
        return "\(tenths / 10).\(tenths % 10)"
    }
}
