/// Schema step 14 → 15, appended to `Schema.migrations` after step 14 (the wake-ups counted, the
/// due counts from the index).
extension Schema {
    /// 14 → 15: each group of the counters keeps its targets' wake-ups (their `push_count`s
    /// summed), kept up as the targets and their counts change (`TargetCounting`), so the status
    /// page's "wake-ups of the active registrations" is a read of the counters, not a sum over the
    /// targets' index (14 ms at 100,000 registrations, a third of the page). Filled from the
    /// targets stored.
    ///
    /// And the due index carries the environment, so the sweep's due counts per environment,
    /// kind and app (read before its first push) are counted from the index alone: they looked
    /// every due row up in the table, 40-70 ms at 20,000 due before anything was sent.
    static let toVersion15 = """
        DROP INDEX push_targets_due;
        CREATE INDEX push_targets_due ON push_targets(next_push_at, registration_token, push_kind, app, environment);
        ALTER TABLE target_groups ADD COLUMN wakeups INTEGER NOT NULL DEFAULT 0;
        UPDATE target_groups SET wakeups = w.total
        FROM (
            SELECT push_kind, environment, activity_type, app, sum(push_count) AS total
            FROM push_targets GROUP BY push_kind, environment, activity_type, app
        ) AS w
        WHERE w.push_kind = target_groups.push_kind AND w.environment = target_groups.environment
            AND w.activity_type = target_groups.activity_type AND w.app = target_groups.app;
        """
}
