import LiveActivityDomain

/// The figures `GET /wakeup/metrics` exposes (read by `MetricsSnapshot.gather` in Storage/): the
/// registrations per group and waiting after failures, lifetime totals, failure reasons and faults
/// (counters that never go down, though the run history itself keeps 30 days), and the last run.
public struct MetricsSnapshot: Sendable {
    /// Groups holding registrations, by type and environment.
    public var groups: [StatsReport.Group] = []
    /// Groups holding targets of every other kind (`widgets`), by kind, type and environment.
    public var otherTargets: [StatsReport.Group] = []
    /// Every run ever recorded in the database.
    public var totals = StatsReport.RunTotals()
    /// Why pushes failed, over every run ever recorded, by kind and reason in order.
    public var failureReasons: [StatsReport.ReasonCount] = []
    /// The last recorded run.
    public var lastRun: RecordedRun?
    /// Each host's last recorded run (every host in the run history), by name.
    public var hosts: [HostRun] = []
    /// Targets waiting after failures (back-off), by environment and kind.
    public var backingOff: [StatsReport.BackingOff] = []
    /// Faults over every run ever recorded (lifetime totals), by environment, kind and reason.
    public var faults: [StatsReport.FaultTotals] = []
    /// Wakes the cadence withheld over every run ever, in order.
    public var withheld: [WithheldWakes] = []
    /// Acks by outcome, lifetime totals (the default app's).
    public var acks: [AckOutcome: Int64] = [:]
    /// Matched acks by delay (`AckDelayBuckets`, not cumulative), lifetime, and their sum in ms
    /// (the default app's).
    public var ackDelayBuckets = [Int64](repeating: 0, count: AckDelayBuckets.count)
    public var ackDelaySumMilliseconds: Int64 = 0
    /// Each further app's acks, the same figures, by app name (SPEC 7: an `app` label).
    public var appAcks: [String: AppAcks] = [:]

    /// One further app's lifetime acks: by outcome, and the matched ones by delay with their sum.
    public struct AppAcks: Sendable, Equatable {
        public var acks: [AckOutcome: Int64] = [:]
        public var delayBuckets = [Int64](repeating: 0, count: AckDelayBuckets.count)
        public var delaySumMilliseconds: Int64 = 0

        public init() {}
    }
    /// Log lines the serving process could not write (a full disk), since it started; nil where
    /// no process serves the figures (`stats`).
    public var logLinesDropped: Int?

    public init(
        groups: [StatsReport.Group] = [], totals: StatsReport.RunTotals = .init(),
        failureReasons: [StatsReport.ReasonCount] = [], lastRun: RecordedRun? = nil,
        backingOff: [StatsReport.BackingOff] = [], faults: [StatsReport.FaultTotals] = []
    ) {
        self.groups = groups
        self.totals = totals
        self.failureReasons = failureReasons
        self.lastRun = lastRun
        self.backingOff = backingOff
        self.faults = faults
    }
}
