/// Schema step 6 → 7, appended to `PostgresSchema.migrations` after step 6 (held junk found at
/// once, the settings' fingerprint per host).
extension PostgresSchema {
    /// 6 → 7, SQLite's step 16: the wake targets the mass-deletion guard held and that were never
    /// answered 200, by app, environment and registration time, so a new token at the unproven
    /// cap finds the oldest of its scope to evict (SPEC 5, guard) without a walk over every
    /// registration.
    ///
    /// And the APNs settings' fingerprint is kept per host: hosts with different settings sharing
    /// one row flipped it at every run, and each flip made every held row due. The one row kept
    /// before is no host's. Altered in place, so the table keeps its grants (the responder's role
    /// has none on it).
    static let toVersion7 = """
        CREATE INDEX push_targets_held_junk ON push_targets (app, environment, registered_at)
            WHERE push_kind = 'wake' AND guard_holds > 0 AND last_push_at IS NULL;
        DELETE FROM sweep_settings;
        ALTER TABLE sweep_settings DROP COLUMN id;
        ALTER TABLE sweep_settings ADD COLUMN host text PRIMARY KEY;
        """
}
