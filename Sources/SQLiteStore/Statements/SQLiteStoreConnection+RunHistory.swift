import LiveActivityDomain
import LiveActivityStore
import SQLiteClient

/// The run history on SQLite (SPEC 7): a sweep's run, its counts, reasons, faults and withheld
/// wakes, what they add to the lifetime totals, and the pruning of what aged out, in one
/// transaction, as `RunRecord` lists them.
extension SQLiteStoreConnection {
    /// Keeps the run, its counts per app and kind, reasons and faults for `stats` and `/wakeup/metrics`,
    /// and prunes what `retention` says has aged out.
    func record(_ summary: SweepSummary, host: String, retention: Retention) throws {
        try transaction {
            try connection.statement(
                "INSERT INTO sweep_runs (started_at, duration_ms, expired, outcome, host) VALUES (?, ?, ?, ?, ?)"
            ).run([
                .integer(summary.startedAt), .integer(summary.durationMilliseconds), .integer(Int64(summary.expired)),
                .text(summary.outcome), .text(host),
            ])
            let runID = try connection.statement("SELECT last_insert_rowid()").scalarInt() ?? 0
            // The lifetime totals grow with the run in its transaction (they never go down:
            // pruning the history below leaves them), as `RunRecord` lists what it adds.
            let record = RunRecord(summary)
            try connection.statement("UPDATE sweep_totals SET runs = runs + 1, expired = expired + ? WHERE id = 1")
                .run([.integer(record.expired)])
            for kind in record.kinds {
                try connection.statement(
                    """
                    INSERT INTO sweep_run_kinds (started_at, run_id, push_kind, app, active, sent, skipped, failed, removed, held)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
                ).run([
                    .integer(record.startedAt), .integer(runID), .text(kind.kind.name), .text(kind.app.rawValue),
                    .integer(kind.active), .integer(kind.sent), .integer(kind.skipped),
                    .integer(kind.failed), .integer(kind.removed), .integer(kind.held),
                ])
                try connection.statement(
                    """
                    INSERT INTO sweep_kind_totals (push_kind, app, sent, failed, removed) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (push_kind, app) DO UPDATE SET sent = sent + excluded.sent, failed = failed + excluded.failed,
                        removed = removed + excluded.removed
                    """
                ).run([
                    .text(kind.kind.name), .text(kind.app.rawValue), .integer(kind.sent), .integer(kind.failed),
                    .integer(kind.removed),
                ])
            }
            for reason in record.reasons {
                try connection.statement(
                    "INSERT INTO sweep_reasons (run_id, kind, push_kind, reason, count) VALUES (?, ?, ?, ?, ?)"
                ).run([
                    .integer(runID), .text(reason.category.rawValue), .text(reason.kind.name), .text(reason.reason),
                    .integer(reason.count),
                ])
                try connection.statement(
                    """
                    INSERT INTO sweep_reason_totals (kind, push_kind, reason, count) VALUES (?, ?, ?, ?)
                    ON CONFLICT (kind, push_kind, reason) DO UPDATE SET count = count + excluded.count
                    """
                ).run([.text(reason.category.rawValue), .text(reason.kind.name), .text(reason.reason), .integer(reason.count)])
            }
            for fault in record.faults {
                try connection.statement(
                    """
                    INSERT OR REPLACE INTO sweep_faults (run_id, environment, push_kind, kind, reason, pushes, app)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """
                ).run([
                    .integer(runID), .text(fault.environment), .text(fault.pushKind), .text(fault.kind), .text(fault.reason),
                    .integer(fault.pushes), .text(fault.app),
                ])
                try connection.statement(
                    """
                    INSERT INTO sweep_fault_totals (environment, push_kind, kind, reason, runs, pushes, last_at, app)
                    VALUES (?, ?, ?, ?, 1, ?, ?, ?)
                    ON CONFLICT (environment, push_kind, kind, reason, app) DO UPDATE SET runs = runs + 1,
                        pushes = pushes + excluded.pushes, last_at = max(last_at, excluded.last_at)
                    """
                ).run([
                    .text(fault.environment), .text(fault.pushKind), .text(fault.kind), .text(fault.reason),
                    .integer(fault.pushes),
                    .integer(record.startedAt), .text(fault.app),
                ])
            }
            for withheld in record.withheld {
                let group = withheld.group
                let names: [PreparedStatement.Value] = [
                    .text(group.app.rawValue), .text(group.activityType.rawValue), .text(group.environment.rawValue),
                    .text(group.reason.rawValue), .integer(withheld.count),
                ]
                try connection.statement(
                    """
                    INSERT INTO sweep_run_withheld (app, activity_type, environment, reason, count, started_at, run_id)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """
                ).run(names + [.integer(record.startedAt), .integer(runID)])
                try connection.statement(
                    """
                    INSERT INTO sweep_withheld_totals (app, activity_type, environment, reason, count) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (app, activity_type, environment, reason) DO UPDATE SET count = count + excluded.count
                    """
                ).run(names)
            }
            let old = PreparedStatement.Value.integer(retention.runsBefore)
            try connection.statement("DELETE FROM sweep_run_kinds WHERE started_at < ?").run([old])
            try connection.statement("DELETE FROM sweep_run_withheld WHERE started_at < ?").run([old])
            for table in ["sweep_reasons", "sweep_faults"] {
                try connection.statement("DELETE FROM \(table) WHERE run_id IN (SELECT id FROM sweep_runs WHERE started_at < ?)")
                    .run([old])
            }
            try connection.statement("DELETE FROM sweep_runs WHERE started_at < ?").run([old])
            try connection.statement("DELETE FROM delivery_hours WHERE hour < ?").run([.integer(retention.hoursBefore)])
            try connection.statement("DELETE FROM ack_hours WHERE hour < ?").run([.integer(retention.hoursBefore)])
        }
    }
}
