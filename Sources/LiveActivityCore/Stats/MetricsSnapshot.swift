/// The figures `GET /wakeup/metrics` exposes (read by `MetricsSnapshot.gather` in Storage/): the
/// registrations per group, lifetime totals and failure reasons (counters that never go down,
/// though the run history itself keeps 30 days), and the last run.
public struct MetricsSnapshot: Sendable {
    /// Groups holding registrations, by type and environment.
    public var groups: [StatsReport.Group] = []
    /// Every run ever recorded in the database.
    public var totals = StatsReport.RunTotals()
    /// Why pushes failed, over every run ever recorded, by reason in order.
    public var failureReasons: [(reason: String, count: Int64)] = []
    /// The last recorded run.
    public var lastRun: RunHistory.LastRun?
}
