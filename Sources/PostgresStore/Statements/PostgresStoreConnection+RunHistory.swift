import LiveActivityDomain
import LiveActivityStore
import PostgresClient
import StoreSQL

/// The run history on PostgreSQL (SPEC 7): a sweep's run, its counts, reasons, faults and
/// withheld wakes, each list one statement of unnested arrays, what they add to the lifetime
/// totals, and the pruning of what aged out, in one transaction, as `RunRecord` lists them.
extension PostgresStoreConnection {
    /// The run, its counts per kind, reasons and faults, and what they add to the lifetime
    /// totals (`RunRecord`), in one transaction; then what `retention` says has aged out pruned
    /// (idempotent: several hosts may prune the same minute).
    func record(_ summary: SweepSummary, host: String, retention: Retention) throws {
        let record = RunRecord(summary)
        try transaction {
            let runID =
                try scalarInt(
                    """
                    INSERT INTO sweep_runs (started_at, duration_ms, expired, outcome, host)
                    VALUES (\(bind: record.startedAt), \(bind: record.durationMilliseconds), \(bind: record.expired), \
                    \(bind: record.outcome.text), \(bind: host))
                    RETURNING id
                    """
                ) ?? 0
            try run("UPDATE sweep_totals SET runs = runs + 1, expired = expired + \(bind: record.expired) WHERE id = 1")
            try recordCounts(record.kinds, run: runID, at: record.startedAt)
            try recordReasons(record.reasons, run: runID)
            try recordFaults(record.faults, run: runID, at: record.startedAt)
            try recordWithheld(record.withheld, run: runID, at: record.startedAt)
            for statement in retention.pruning() as [PostgresSQL] { try run(statement) }
        }
    }

    private func recordCounts(_ kinds: [RunRecord.KindCounts], run: Int64, at startedAt: Int64) throws(PostgresError) {
        let column = { (count: KeyPath<RunRecord.KindCounts, Int64>) in UnnestColumn.integers(kinds.map { $0[keyPath: count] }) }
        let kindNames = UnnestColumn.text(kinds.map(\.kind.name))
        let apps = UnnestColumn.text(kinds.map(\.app.rawValue))
        try self.run(
            """
            INSERT INTO sweep_run_kinds (started_at, run_id, push_kind, active, sent, skipped, failed, removed, held, app)
            SELECT \(bind: startedAt)::bigint, \(bind: run)::bigint, *
            FROM \(.unnest([
                kindNames, column(\.active), column(\.sent), column(\.skipped), column(\.failed), column(\.removed),
                column(\.held), apps,
            ]))
            """)
        try self.run(
            """
            INSERT INTO sweep_kind_totals AS t (push_kind, sent, failed, removed, app)
            SELECT * FROM \(.unnest([kindNames, column(\.sent), column(\.failed), column(\.removed), apps]))
            ON CONFLICT (push_kind, app) DO UPDATE SET sent = t.sent + excluded.sent, failed = t.failed + excluded.failed,
                removed = t.removed + excluded.removed
            """)
    }

    private func recordReasons(_ reasons: [RunRecord.Reason], run: Int64) throws(PostgresError) {
        guard !reasons.isEmpty else { return }
        let columns: [UnnestColumn] = [
            .text(reasons.map(\.category.rawValue)), .text(reasons.map(\.kind.name)), .text(reasons.map(\.reason)),
            .integers(reasons.map(\.count)),
        ]
        try self.run(
            """
            INSERT INTO sweep_reasons (run_id, kind, push_kind, reason, count)
            SELECT \(bind: run)::bigint, * FROM \(.unnest(columns))
            """)
        try self.run(
            """
            INSERT INTO sweep_reason_totals AS t (kind, push_kind, reason, count)
            SELECT * FROM \(.unnest(columns))
            ON CONFLICT (kind, push_kind, reason) DO UPDATE SET count = t.count + excluded.count
            """)
    }

    private func recordFaults(_ faults: [RunRecord.Fault], run: Int64, at startedAt: Int64) throws(PostgresError) {
        guard !faults.isEmpty else { return }
        let columns: [UnnestColumn] = [
            .text(faults.map(\.environment.rawValue)), .text(faults.map(\.pushKindName)), .text(faults.map(\.kind.rawValue)),
            .text(faults.map(\.reason)), .integers(faults.map(\.pushes)), .text(faults.map(\.app.rawValue)),
        ]
        try self.run(
            """
            INSERT INTO sweep_faults (run_id, environment, push_kind, kind, reason, pushes, app)
            SELECT \(bind: run)::bigint, * FROM \(.unnest(columns))
            """)
        try self.run(
            """
            INSERT INTO sweep_fault_totals AS t (environment, push_kind, kind, reason, runs, pushes, last_at, app)
            SELECT e, p, k, r, 1, n, \(bind: startedAt)::bigint, a
            FROM \(.unnest(columns)) AS u(e, p, k, r, n, a)
            ON CONFLICT (environment, push_kind, kind, reason, app) DO UPDATE SET runs = t.runs + 1,
                pushes = t.pushes + excluded.pushes, last_at = greatest(t.last_at, excluded.last_at)
            """)
    }

    private func recordWithheld(_ withheld: [WithheldWakes], run: Int64, at startedAt: Int64) throws(PostgresError) {
        guard !withheld.isEmpty else { return }
        let columns: [UnnestColumn] = [
            .text(withheld.map(\.group.app.rawValue)), .text(withheld.map(\.group.activityType.rawValue)),
            .text(withheld.map(\.group.environment.rawValue)), .text(withheld.map(\.group.reason.rawValue)),
            .integers(withheld.map(\.count)),
        ]
        try self.run(
            """
            INSERT INTO sweep_run_withheld (started_at, run_id, app, activity_type, environment, reason, count)
            SELECT \(bind: startedAt)::bigint, \(bind: run)::bigint, * FROM \(.unnest(columns))
            """)
        try self.run(
            """
            INSERT INTO sweep_withheld_totals AS t (app, activity_type, environment, reason, count)
            SELECT * FROM \(.unnest(columns))
            ON CONFLICT (app, activity_type, environment, reason) DO UPDATE SET count = t.count + excluded.count
            """)
    }
}
