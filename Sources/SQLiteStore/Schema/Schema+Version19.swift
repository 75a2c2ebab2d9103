/// Schema step 18 → 19 (no index the sweep keeps up for one figure alone).
extension Schema {
    /// 18 → 19: the wake-ups index (`push_count` of the pushed wake targets) moved an entry on
    /// every push, a third of the pages a push wrote (and the checkpoint copied again), to serve
    /// only the figures' most-pushed targets (SPEC 4: indexes serve the sweep's due and expired
    /// rows). The due index carries `push_count` last instead: its entry moves on every push
    /// anyway (`next_push_at` does), so the column costs no page more, and the top list is a
    /// covering scan of it, never of the table (docs/PERFORMANCE.md).
    static let toVersion19 = """
        DROP INDEX push_targets_by_wakeups;
        DROP INDEX push_targets_due;
        CREATE INDEX push_targets_due ON push_targets(next_push_at, registration_token, push_kind, app, environment, push_count);
        """
}
