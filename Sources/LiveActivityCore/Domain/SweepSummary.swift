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
    /// Why pushes failed (kept for a later sweep), with counts.
    public var failureReasons: [String: Int] = [:]
    /// Why registrations were removed (410, BadDeviceToken), with counts.
    public var removalReasons: [String: Int] = [:]
    /// Set when the sweep stopped for a configuration fault.
    public var configurationFault: String?

    public init() {}

    /// `ok`, or the fault that stopped the sweep.
    public var outcome: String { configurationFault.map { "configuration fault: \($0)" } ?? "ok" }

    public var line: String {
        var text =
            "sweep: active=\(active) sent=\(sent) skipped=\(skipped) expired=\(expired) removed=\(removed) failed=\(failed) duration=\(Self.seconds(durationMilliseconds))s"
        for (label, reasons) in [("failures", failureReasons), ("removals", removalReasons)] where !reasons.isEmpty {
            text += " \(label)=" + reasons.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",")
        }
        return text
    }

    package static func seconds(_ milliseconds: Int64) -> String {
        let tenths = (milliseconds + 50) / 100
        return "\(tenths / 10).\(tenths % 10)"
    }
}
