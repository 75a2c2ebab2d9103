/// Schema step 16 → 17 (the cadence's state).
extension Schema {
    /// 16 → 17: what a wake target's cadence is computed from (SPEC 5, "Cadence"): the device
    /// state the app last reported (each NULL until said), the matched acks in a row that said
    /// the data had not changed, and what an ack waiting on the row said of it. Only the latest
    /// value of each, no history of them (SPEC 3).
    static let toVersion17 = """
        ALTER TABLE push_targets ADD COLUMN activities INTEGER;
        ALTER TABLE push_targets ADD COLUMN background_refresh TEXT;
        ALTER TABLE push_targets ADD COLUMN low_power INTEGER;
        ALTER TABLE push_targets ADD COLUMN unchanged_acks INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE push_targets ADD COLUMN waiting_changed INTEGER;
        """
}
