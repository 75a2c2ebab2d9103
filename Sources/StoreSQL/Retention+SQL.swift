import LiveActivityStore

/// The history's pruning, the same statements on every SQL engine (idempotent: several hosts
/// may prune the same minute).
extension Retention {
    /// The statements that delete what has aged out, in order (a run's reasons and faults before the run).
    public func pruning<Value>() -> [SQL<Value>] {
        let runs: [SQL<Value>] = ["sweep_reasons", "sweep_faults"].map { table in
            "DELETE FROM \(raw: table) WHERE run_id IN (SELECT id FROM sweep_runs WHERE started_at < \(bind: runsBefore))"
        }
        return [
            "DELETE FROM sweep_run_kinds WHERE started_at < \(bind: runsBefore)",
            "DELETE FROM sweep_run_withheld WHERE started_at < \(bind: runsBefore)",
        ] + runs + [
            "DELETE FROM sweep_runs WHERE started_at < \(bind: runsBefore)",
            "DELETE FROM delivery_hours WHERE hour < \(bind: hoursBefore)",
            "DELETE FROM ack_hours WHERE hour < \(bind: hoursBefore)",
        ]
    }
}
