import LiveActivityDomain
import LiveActivityStore
import PostgresClient

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
                try statement(
                    """
                    INSERT INTO sweep_runs (started_at, duration_ms, expired, outcome, host) VALUES ($1, $2, $3, $4, $5)
                    RETURNING id
                    """
                ).scalarInt([
                    .integer(record.startedAt), .integer(record.durationMilliseconds), .integer(record.expired),
                    .text(record.outcome), .text(host),
                ]) ?? 0
            try statement("UPDATE sweep_totals SET runs = runs + 1, expired = expired + $1 WHERE id = 1").run([
                .integer(record.expired)
            ])
            try recordCounts(record.kinds, run: runID, at: record.startedAt)
            try recordReasons(record.reasons, run: runID)
            try recordFaults(record.faults, run: runID, at: record.startedAt)
            try recordWithheld(record.withheld, run: runID, at: record.startedAt)
            try prune(retention)
        }
    }

    private func recordCounts(_ kinds: [RunRecord.KindCounts], run: Int64, at startedAt: Int64) throws(PostgresError) {
        let column = { (count: KeyPath<RunRecord.KindCounts, Int64>) in PostgresArray.integers(kinds.map { $0[keyPath: count] }) }
        try statement(
            """
            INSERT INTO sweep_run_kinds (started_at, run_id, push_kind, active, sent, skipped, failed, removed, held, app)
            SELECT $10::bigint, $1::bigint, *
            FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::text[])
            """
        ).run([
            .integer(run), PostgresArray.text(kinds.map(\.kind.name)), column(\.active), column(\.sent), column(\.skipped),
            column(\.failed), column(\.removed), column(\.held), PostgresArray.text(kinds.map(\.app.rawValue)),
            .integer(startedAt),
        ])
        try statement(
            """
            INSERT INTO sweep_kind_totals AS t (push_kind, sent, failed, removed, app)
            SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[], $5::text[])
            ON CONFLICT (push_kind, app) DO UPDATE SET sent = t.sent + excluded.sent, failed = t.failed + excluded.failed,
                removed = t.removed + excluded.removed
            """
        ).run([
            PostgresArray.text(kinds.map(\.kind.name)), column(\.sent), column(\.failed), column(\.removed),
            PostgresArray.text(kinds.map(\.app.rawValue)),
        ])
    }

    private func recordReasons(_ reasons: [RunRecord.Reason], run: Int64) throws(PostgresError) {
        guard !reasons.isEmpty else { return }
        let columns = [
            PostgresArray.text(reasons.map(\.category.rawValue)), PostgresArray.text(reasons.map(\.kind.name)),
            PostgresArray.text(reasons.map(\.reason)), PostgresArray.integers(reasons.map(\.count)),
        ]
        try statement(
            """
            INSERT INTO sweep_reasons (run_id, kind, push_kind, reason, count)
            SELECT $1::bigint, * FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[])
            """
        ).run([.integer(run)] + columns)
        try statement(
            """
            INSERT INTO sweep_reason_totals AS t (kind, push_kind, reason, count)
            SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[])
            ON CONFLICT (kind, push_kind, reason) DO UPDATE SET count = t.count + excluded.count
            """
        ).run(columns)
    }

    private func recordFaults(_ faults: [RunRecord.Fault], run: Int64, at startedAt: Int64) throws(PostgresError) {
        guard !faults.isEmpty else { return }
        let columns = [
            PostgresArray.text(faults.map(\.environment)), PostgresArray.text(faults.map(\.pushKind)),
            PostgresArray.text(faults.map(\.kind)), PostgresArray.text(faults.map(\.reason)),
            PostgresArray.integers(faults.map(\.pushes)), PostgresArray.text(faults.map(\.app)),
        ]
        try statement(
            """
            INSERT INTO sweep_faults (run_id, environment, push_kind, kind, reason, pushes, app)
            SELECT $1::bigint, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[])
            """
        ).run([.integer(run)] + columns)
        try statement(
            """
            INSERT INTO sweep_fault_totals AS t (environment, push_kind, kind, reason, runs, pushes, last_at, app)
            SELECT e, p, k, r, 1, n, $7::bigint, a
            FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[]) AS u(e, p, k, r, n, a)
            ON CONFLICT (environment, push_kind, kind, reason, app) DO UPDATE SET runs = t.runs + 1,
                pushes = t.pushes + excluded.pushes, last_at = greatest(t.last_at, excluded.last_at)
            """
        ).run(columns + [.integer(startedAt)])
    }

    private func recordWithheld(_ withheld: [WithheldWakes], run: Int64, at startedAt: Int64) throws(PostgresError) {
        guard !withheld.isEmpty else { return }
        let columns = [
            PostgresArray.text(withheld.map(\.group.app.rawValue)),
            PostgresArray.text(withheld.map(\.group.activityType.rawValue)),
            PostgresArray.text(withheld.map(\.group.environment.rawValue)),
            PostgresArray.text(withheld.map(\.group.reason.rawValue)),
            PostgresArray.integers(withheld.map(\.count)),
        ]
        try statement(
            """
            INSERT INTO sweep_run_withheld (started_at, run_id, app, activity_type, environment, reason, count)
            SELECT $6::bigint, $7::bigint, * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[])
            """
        ).run(columns + [.integer(startedAt), .integer(run)])
        try statement(
            """
            INSERT INTO sweep_withheld_totals AS t (app, activity_type, environment, reason, count)
            SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[])
            ON CONFLICT (app, activity_type, environment, reason) DO UPDATE SET count = t.count + excluded.count
            """
        ).run(columns)
    }

    private func prune(_ retention: Retention) throws(PostgresError) {
        let old = PostgresValue.integer(retention.runsBefore)
        try statement("DELETE FROM sweep_run_kinds WHERE started_at < $1").run([old])
        try statement("DELETE FROM sweep_run_withheld WHERE started_at < $1").run([old])
        for table in ["sweep_reasons", "sweep_faults"] {
            try statement("DELETE FROM \(table) WHERE run_id IN (SELECT id FROM sweep_runs WHERE started_at < $1)").run([old])
        }
        try statement("DELETE FROM sweep_runs WHERE started_at < $1").run([old])
        try statement("DELETE FROM delivery_hours WHERE hour < $1").run([.integer(retention.hoursBefore)])
        try statement("DELETE FROM ack_hours WHERE hour < $1").run([.integer(retention.hoursBefore)])
    }
}
