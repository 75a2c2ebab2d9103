/// Whether the sweeps run as they should, the alarm at the top of the status page (SPEC 3): cron
/// starts one a minute, so on a healthy host one finished within the last 3 minutes, and the last
/// one exited 0. Pure: the report's figures and its time in, the alarms out.
public struct SweepHealth: Sendable, Equatable {
    /// No sweep finished for this long: cron stopped (or every run fails before recording).
    public static let staleAfterMilliseconds: Int64 = 180_000

    public enum Alarm: Sendable, Equatable {
        /// The database holds no sweep run at all.
        case noSweepRecorded
        /// The last run finished this long ago (ms), more than `staleAfterMilliseconds`.
        case noSweepFinishedLately(milliseconds: Int64)
        /// The last run exited non-zero (a configuration or provider fault, the guard held deletions).
        case lastSweepFailed

        /// The machine-readable name in `stats --json`.
        public var name: String {
            switch self {
            case .noSweepRecorded: "noSweepRecorded"
            case .noSweepFinishedLately: "noSweepFinishedLately"
            case .lastSweepFailed: "lastSweepFailed"
            }
        }
    }

    public var alarms: [Alarm]

    public init(lastFinishedAt: Int64?, lastExitedNonZero: Bool, now: Int64) {
        var alarms: [Alarm] = []
        if let lastFinishedAt {
            // A finish in the future (another host's clock) counts as just now.
            let since = max(0, now - lastFinishedAt)
            if since > Self.staleAfterMilliseconds { alarms.append(.noSweepFinishedLately(milliseconds: since)) }
            if lastExitedNonZero { alarms.append(.lastSweepFailed) }
        } else {
            alarms.append(.noSweepRecorded)
        }
        self.alarms = alarms
    }

    public init(_ report: StatsReport) {
        self.init(
            lastFinishedAt: report.day.lastRunFinishedAt, lastExitedNonZero: report.day.lastRunExitedNonZero,
            now: report.generatedAt)
    }

    public var isAlarm: Bool { !alarms.isEmpty }
}
