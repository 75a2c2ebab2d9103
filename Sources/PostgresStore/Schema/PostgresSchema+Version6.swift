/// Schema step 5 → 6, appended to `PostgresSchema.migrations` after step 5 (the wake-ups counted).
extension PostgresSchema {
    /// 5 → 6, SQLite's step 15: each group of the counters keeps its targets' wake-ups (their
    /// `push_count`s summed), kept up as the targets and their counts change (`TargetCounting`),
    /// so the figures' "wake-ups of the active registrations" is a read of the counters, not a
    /// sum over the targets. Filled from the targets stored; altered in place, so the table keeps
    /// its grants.
    static let toVersion6 = """
        ALTER TABLE target_groups ADD COLUMN wakeups bigint NOT NULL DEFAULT 0;
        UPDATE target_groups g SET wakeups = w.total
        FROM (
            SELECT push_kind, environment, activity_type, app, sum(push_count)::bigint AS total
            FROM push_targets GROUP BY push_kind, environment, activity_type, app
        ) AS w
        WHERE w.push_kind = g.push_kind AND w.environment = g.environment AND w.activity_type = g.activity_type
            AND w.app = g.app;
        """
}
