import LiveActivityDomain
import LiveActivityFigures

/// The recorded sweep runs as `stats` and `/wakeup/metrics` read them (`SweepStore.record` writes
/// them and keeps 30 days): range reads on the start-time index for recent windows, and the
/// lifetime totals that triggers keep as runs are recorded, which pruning never lowers.
package struct RunHistory {
    private let connection: SQLiteConnection

    package init(_ connection: SQLiteConnection) { self.connection = connection }

    /// Every run ever recorded in this database: counters that only grow (SPEC 7).
    package func lifetimeTotals() throws(SQLiteError) -> StatsReport.RunTotals {
        try connection.statement("SELECT runs, sent, failed, removed, expired FROM sweep_totals WHERE id = 1")
            .firstRow { row in
                StatsReport.RunTotals(
                    runs: row.int(0), sent: row.int(1), failed: row.int(2), removed: row.int(3), expired: row.int(4))
            } ?? StatsReport.RunTotals()
    }

    /// Sums over the kept runs started at or after `since` (Unix ms).
    package func totals(since: Int64) throws(SQLiteError) -> StatsReport.RunTotals {
        try connection.statement(
            """
            SELECT count(*), coalesce(sum(sent), 0), coalesce(sum(failed), 0), coalesce(sum(removed), 0),
                   coalesce(sum(expired), 0)
            FROM sweep_runs WHERE started_at >= ?
            """
        ).firstRow([.integer(since)]) { row in
            StatsReport.RunTotals(
                runs: row.int(0), sent: row.int(1), failed: row.int(2), removed: row.int(3), expired: row.int(4))
        } ?? StatsReport.RunTotals()
    }

    /// The last recorded run: the last one written (`id`), not the latest start, which a step of
    /// the wall clock could make an older run's (issue 26 point 8).
    package func lastRun() throws(SQLiteError) -> RecordedRun? {
        try connection.statement("SELECT started_at, duration_ms, outcome FROM sweep_runs ORDER BY id DESC LIMIT 1")
            .firstRow { row in RecordedRun(startedAt: row.int(0), durationMilliseconds: row.int(1), outcome: row.text(2)) }
    }

    /// Why pushes failed, over every run ever recorded: each reason with its count, by reason.
    package func failureReasons() throws(SQLiteError) -> [(reason: String, count: Int64)] {
        try connection.statement("SELECT reason, count FROM sweep_reason_totals WHERE kind = ? ORDER BY reason")
            .rows([.text("failed")]) { row in (row.text(0) ?? "", row.int(1)) }
    }

    /// The faults of the runs started at or after `since`, by environment, kind and reason
    /// (sweep_faults holds at most one per environment and kind in a run).
    package func faults(since: Int64) throws(SQLiteError) -> [StatsReport.FaultTotals] {
        try connection.statement(
            """
            SELECT f.environment, f.kind, f.reason, count(*), sum(f.pushes), max(r.started_at)
            FROM sweep_faults f JOIN sweep_runs r ON r.id = f.run_id
            WHERE r.started_at >= ? GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
            """
        ).rows([.integer(since)]) { row in
            StatsReport.FaultTotals(
                environment: row.text(0) ?? "", kind: row.text(1) ?? "", reason: row.text(2) ?? "", runs: row.int(3),
                pushes: row.int(4), lastAt: row.int(5))
        }
    }

    /// Every fault ever recorded, by environment, kind and reason: lifetime totals kept by a
    /// trigger (schema step 5 → 6), so pruning the history never lowers them.
    package func lifetimeFaults() throws(SQLiteError) -> [StatsReport.FaultTotals] {
        try connection.statement(
            "SELECT environment, kind, reason, runs, pushes, last_at FROM sweep_fault_totals ORDER BY 1, 2, 3"
        ).rows { row in
            StatsReport.FaultTotals(
                environment: row.text(0) ?? "", kind: row.text(1) ?? "", reason: row.text(2) ?? "", runs: row.int(3),
                pushes: row.int(4), lastAt: row.int(5))
        }
    }
}
