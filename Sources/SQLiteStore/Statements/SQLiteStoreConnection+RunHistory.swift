import LiveActivityDomain
import LiveActivityStore
import SQLiteClient
import StoreSQL

/// The run history on SQLite (SPEC 7): a sweep's run, its counts, reasons, faults and withheld
/// wakes, what they add to the lifetime totals, and the pruning of what aged out, in one
/// transaction, as `RunRecord` lists them.
extension SQLiteStoreConnection {
    /// Keeps the run, its counts per app and kind, reasons and faults for `stats` and `/wakeup/metrics`,
    /// and prunes what `retention` says has aged out.
    func record(_ summary: SweepSummary, host: String, retention: Retention) throws {
        try transaction {
            // The lifetime totals grow with the run in its transaction (they never go down:
            // pruning the history below leaves them), as `RunRecord` lists what it adds.
            let record = RunRecord(summary)
            try connection.run(
                """
                INSERT INTO sweep_runs (started_at, duration_ms, expired, outcome, host)
                VALUES (\(bind: summary.startedAt), \(bind: summary.durationMilliseconds), \(bind: Int64(summary.expired)), \
                \(bind: record.outcome.text), \(bind: host))
                """)
            let runID = try connection.statement("SELECT last_insert_rowid()").scalarInt() ?? 0
            try connection.run(
                "UPDATE sweep_totals SET runs = runs + 1, expired = expired + \(bind: record.expired) WHERE id = 1")
            for kind in record.kinds {
                try connection.run(
                    """
                    INSERT INTO sweep_run_kinds (started_at, run_id, push_kind, app, active, sent, skipped, failed, removed, held)
                    VALUES (\(bind: record.startedAt), \(bind: runID), \(bind: kind.kind.name), \(bind: kind.app.rawValue), \
                    \(bind: kind.active), \(bind: kind.sent), \(bind: kind.skipped), \(bind: kind.failed), \(bind: kind.removed), \
                    \(bind: kind.held))
                    """)
                try connection.run(
                    """
                    INSERT INTO sweep_kind_totals (push_kind, app, sent, failed, removed)
                    VALUES (\(bind: kind.kind.name), \(bind: kind.app.rawValue), \(bind: kind.sent), \(bind: kind.failed), \
                    \(bind: kind.removed))
                    ON CONFLICT (push_kind, app) DO UPDATE SET sent = sent + excluded.sent, failed = failed + excluded.failed,
                        removed = removed + excluded.removed
                    """)
            }
            for reason in record.reasons {
                let names: SQLiteSQL = "\(bind: reason.category.rawValue), \(bind: reason.kind.name), \(bind: reason.reason)"
                try connection.run(
                    """
                    INSERT INTO sweep_reasons (run_id, kind, push_kind, reason, count)
                    VALUES (\(bind: runID), \(names), \(bind: reason.count))
                    """)
                try connection.run(
                    """
                    INSERT INTO sweep_reason_totals (kind, push_kind, reason, count) VALUES (\(names), \(bind: reason.count))
                    ON CONFLICT (kind, push_kind, reason) DO UPDATE SET count = count + excluded.count
                    """)
            }
            for fault in record.faults {
                let names: SQLiteSQL = """
                    \(bind: fault.environment.rawValue), \(bind: fault.pushKindName), \(bind: fault.kind.rawValue), \
                    \(bind: fault.reason)
                    """
                try connection.run(
                    """
                    INSERT OR REPLACE INTO sweep_faults (run_id, environment, push_kind, kind, reason, pushes, app)
                    VALUES (\(bind: runID), \(names), \(bind: fault.pushes), \(bind: fault.app.rawValue))
                    """)
                try connection.run(
                    """
                    INSERT INTO sweep_fault_totals (environment, push_kind, kind, reason, runs, pushes, last_at, app)
                    VALUES (\(names), 1, \(bind: fault.pushes), \(bind: record.startedAt), \(bind: fault.app.rawValue))
                    ON CONFLICT (environment, push_kind, kind, reason, app) DO UPDATE SET runs = runs + 1,
                        pushes = pushes + excluded.pushes, last_at = max(last_at, excluded.last_at)
                    """)
            }
            for withheld in record.withheld {
                let group = withheld.group
                let names: SQLiteSQL = """
                    \(bind: group.app.rawValue), \(bind: group.activityType.rawValue), \(bind: group.environment.rawValue), \
                    \(bind: group.reason.rawValue), \(bind: withheld.count)
                    """
                try connection.run(
                    """
                    INSERT INTO sweep_run_withheld (app, activity_type, environment, reason, count, started_at, run_id)
                    VALUES (\(names), \(bind: record.startedAt), \(bind: runID))
                    """)
                try connection.run(
                    """
                    INSERT INTO sweep_withheld_totals (app, activity_type, environment, reason, count) VALUES (\(names))
                    ON CONFLICT (app, activity_type, environment, reason) DO UPDATE SET count = count + excluded.count
                    """)
            }
            for statement in retention.pruning() as [SQLiteSQL] { try connection.run(statement) }
        }
    }
}
