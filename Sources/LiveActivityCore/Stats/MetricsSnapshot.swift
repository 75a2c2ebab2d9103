/// The figures `GET /wakeup/metrics` exposes (read by `MetricsSnapshot.gather` in Storage/): the
/// registrations per group, totals and failure reasons over the recorded sweep runs (30 days are
/// kept), and the last run.
public struct MetricsSnapshot: Sendable {
    /// Groups holding registrations, by type and environment.
    public var groups: [StatsReport.Group] = []
    /// Sums over every recorded run.
    public var totals = StatsReport.RunTotals()
    /// Why pushes failed over the recorded runs, by reason in order.
    public var failureReasons: [(reason: String, count: Int64)] = []
    /// The last recorded run.
    public var lastRun: RunHistory.LastRun?
}
