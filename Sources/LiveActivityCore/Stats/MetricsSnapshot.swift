/// The figures `GET /wakeup/metrics` exposes, read without scanning the registrations: the
/// trigger-kept counters per group, totals and failure reasons over the recorded sweep runs
/// (30 days are kept), and the last run.
public struct MetricsSnapshot: Sendable {
    /// Groups holding registrations, in the counter table's order.
    public var groups: [StatsReport.Group] = []
    /// Sums over every recorded run.
    public var totals = StatsReport.RunTotals()
    /// Why pushes failed over the recorded runs, by reason in order.
    public var failureReasons: [(reason: String, count: Int64)] = []
    /// Start (Unix ms) and duration of the last recorded run.
    public var lastRun: (startedAt: Int64, durationMilliseconds: Int64)?

    /// Reads the snapshot from `connection`.
    public static func gather(_ connection: SQLiteConnection) throws -> MetricsSnapshot {
        var snapshot = MetricsSnapshot()
        // The trigger-kept counters (schema step 2 → 3): a scrape never scans the table.
        let groups = try connection.statement(
            "SELECT activity_type, environment, n FROM registration_groups WHERE n > 0")
        try groups.bind([])
        while try groups.step() {
            snapshot.groups.append(
                StatsReport.Group(activityType: groups.text(0) ?? "", environment: groups.text(1) ?? "", count: groups.int(2)))
        }
        groups.reset()

        let totals = try connection.statement(
            """
            SELECT count(*), coalesce(sum(sent), 0), coalesce(sum(failed), 0), coalesce(sum(removed), 0),
                   coalesce(sum(expired), 0)
            FROM sweep_runs
            """)
        try totals.bind([])
        _ = try totals.step()
        snapshot.totals = StatsReport.RunTotals(
            runs: totals.int(0), sent: totals.int(1), failed: totals.int(2), removed: totals.int(3), expired: totals.int(4))
        totals.reset()

        let reasons = try connection.statement(
            "SELECT reason, sum(count) FROM sweep_reasons WHERE kind = ? GROUP BY reason ORDER BY reason")
        try reasons.bind([.text("failed")])
        while try reasons.step() { snapshot.failureReasons.append((reasons.text(0) ?? "", reasons.int(1))) }
        reasons.reset()

        let last = try connection.statement("SELECT started_at, duration_ms FROM sweep_runs ORDER BY started_at DESC LIMIT 1")
        try last.bind([])
        if try last.step() { snapshot.lastRun = (last.int(0), last.int(1)) }
        last.reset()
        return snapshot
    }
}
