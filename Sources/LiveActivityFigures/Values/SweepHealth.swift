/// Whether the sweeps run as they should, the alarm at the top of the status page (SPEC 3): cron
/// starts one a minute, so on a healthy host one finished within the last 3 minutes, and the last
/// one exited 0. Pure: the report's figures and its time in, the alarms out.
public struct SweepHealth: Sendable, Equatable {
    /// No sweep finished for this long: cron stopped (or every run fails before recording).
    public static let staleAfterMilliseconds: Int64 = 180_000

    public enum Alarm: Sendable, Equatable {
        /// The database holds no sweep run at all.
        case noSweepRecorded
        /// The last run finished this long ago (ms), more than `staleAfterMilliseconds`; negative
        /// when it is recorded as finishing that far ahead of the clock (which went back since).
        case noSweepFinishedLately(milliseconds: Int64)
        /// The last run exited non-zero (a configuration or provider fault, the guard held deletions).
        case lastSweepFailed
        /// Of several hosts sweeping one database, this one's last run finished this long ago (ms),
        /// more than `staleAfterMilliseconds` (its cron stopped, or it lost the database) while
        /// the others may go on: their runs would hide it from the alarms above.
        case hostStopped(host: String, milliseconds: Int64)

        /// The machine-readable name in `stats --json`.
        public var name: String {
            switch self {
            case .noSweepRecorded: "noSweepRecorded"
            case .noSweepFinishedLately: "noSweepFinishedLately"
            case .lastSweepFailed: "lastSweepFailed"
            case .hostStopped: "hostStopped"
            }
        }
    }

    public var alarms: [Alarm]

    /// `hosts`: each host's last run (`StatsReport.Day.hosts`); watched one by one only when
    /// more than one host swept in the last 24 hours (one host's stop is the alarms above).
    public init(lastFinishedAt: Int64?, lastExitedNonZero: Bool, now: Int64, hosts: [HostRun] = []) {
        var alarms: [Alarm] = []
        if let lastFinishedAt {
            // `lastFinishedAt` is the last run recorded (not the latest start), so a step of the
            // clock cannot put an older run in its place. A finish a little ahead (another host's
            // clock) counts as just now; one further ahead than the bound means this clock went
            // back since and no run was recorded after the step: by this clock, none finished in
            // the last 3 minutes either, which is what the alarm says (cron stopped, or every run
            // fails), rather than "all well" for as long as the clock went back.
            let since = now.subtractingSaturated(lastFinishedAt)
            if since.magnitude > Self.staleAfterMilliseconds.magnitude {
                alarms.append(.noSweepFinishedLately(milliseconds: since))
            }
            if lastExitedNonZero { alarms.append(.lastSweepFailed) }
        } else {
            alarms.append(.noSweepRecorded)
        }
        if hosts.count > 1 {
            for run in hosts where now.subtractingSaturated(run.finishedAt).magnitude > Self.staleAfterMilliseconds.magnitude {
                alarms.append(.hostStopped(host: run.host, milliseconds: now.subtractingSaturated(run.finishedAt)))
            }
        }
        self.alarms = alarms
    }

    public init(_ report: StatsReport) {
        self.init(
            lastFinishedAt: report.day.lastRunFinishedAt, lastExitedNonZero: report.day.lastRunExitedNonZero,
            now: report.generatedAt, hosts: report.day.hosts)
    }

    public var isAlarm: Bool { !alarms.isEmpty }
}
