import LiveActivityDomain
import LiveActivityFigures

/// The reads behind `StatsReport.Day`: range reads of the run history on its start-time index
/// (1,440 runs a day at cron's pace), never the registrations.
extension StatsReport.Day {
    static func gather(_ connection: SQLiteConnection, now: Int64) throws(SQLiteError) -> StatsReport.Day {
        var day = StatsReport.Day()
        day.start = start(now: now)
        day.buckets = try connection.statement(
            """
            SELECT started_at / ?1, count(*), max(active), sum(sent), sum(failed) FROM sweep_runs
            WHERE started_at >= ?2 GROUP BY 1 ORDER BY 1
            """
        ).rows([.integer(bucketMilliseconds), .integer(day.start)]) { row in
            StatsReport.SweepBucket(
                start: row.int(0) * bucketMilliseconds, runs: row.int(1), active: row.int(2), sent: row.int(3),
                failed: row.int(4))
        }
        day.hours = try wakeHours(connection, since: firstHour(now: now))
        let reasons = try connection.statement(
            """
            SELECT s.kind, s.reason, sum(s.count) FROM sweep_runs r JOIN sweep_reasons s ON s.run_id = r.id
            WHERE r.started_at >= ? GROUP BY 1, 2 ORDER BY 3 DESC, 2
            """
        ).rows([.integer(now - 86_400_000)]) { row in
            (kind: row.text(0) ?? "", StatsReport.ReasonCount(reason: row.text(1) ?? "", count: row.int(2)))
        }
        day.failureReasons = reasons.filter { $0.kind == "failed" }.map(\.1)
        day.removalReasons = reasons.filter { $0.kind == "removed" }.map(\.1)

        // The kinds of fault that make the sweep exit non-zero, from the rule itself.
        let failing = SweepFault.Kind.allCases.filter {
            SweepFault(environment: .production, kind: $0, reason: "", advice: "").failsTheRun
        }
        let placeholders = failing.indices.map { "?\($0 + 1)" }.joined(separator: ", ")
        // The same row as `RunHistory.lastRun`: the last one recorded, whatever the clock did.
        let last = try connection.statement(
            """
            SELECT started_at + duration_ms,
                   EXISTS (SELECT 1 FROM sweep_faults f WHERE f.run_id = sweep_runs.id AND f.kind IN (\(placeholders)))
            FROM sweep_runs ORDER BY id DESC LIMIT 1
            """
        ).firstRow(failing.map { .text($0.rawValue) }) { row in (row.int(0), row.int(1) != 0) }
        day.lastRunFinishedAt = last?.0
        day.lastRunExitedNonZero = last?.1 ?? false
        return day
    }
}
