/// Schema step 9 → 10, appended to `PostgresSchema.migrations` after step 9 (no index the sweep
/// keeps up for one figure alone).
extension PostgresSchema {
    /// 9 → 10, SQLite's step 19: the wake-ups index took a new entry on every push (an update
    /// that moves `next_push_at` is never HOT, and a pushed target matches its predicate) to
    /// serve only the figures' most-pushed targets (SPEC 4: indexes serve the sweep's due and
    /// expired rows). The top list is a scan of the table with a top-N sort instead; carrying
    /// `push_count` in the due index (INCLUDE) measured no faster (docs/PERFORMANCE.md).
    static let toVersion10 = """
        DROP INDEX push_targets_by_wakeups;
        """
}
