/// Schema step 7 → 8, appended to `PostgresSchema.migrations` after step 7 (the cadence's state).
extension PostgresSchema {
    /// 7 → 8, SQLite's step 17: what a wake target's cadence is computed from (SPEC 5, "Cadence"):
    /// the device state the app last reported (each NULL until said; `low_power` 0 or 1, as
    /// SQLite keeps it, so one decoder reads both), the matched acks in a row that said the data
    /// had not changed, and what an ack waiting on the row said of it. Altered in place, so the
    /// table keeps its grants.
    static let toVersion8 = """
        ALTER TABLE push_targets ADD COLUMN activities bigint;
        ALTER TABLE push_targets ADD COLUMN background_refresh text;
        ALTER TABLE push_targets ADD COLUMN low_power bigint;
        ALTER TABLE push_targets ADD COLUMN unchanged_acks bigint NOT NULL DEFAULT 0;
        ALTER TABLE push_targets ADD COLUMN waiting_changed bigint;
        """
}
