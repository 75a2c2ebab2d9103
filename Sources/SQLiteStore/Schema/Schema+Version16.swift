/// Schema step 15 → 16, appended to `Schema.migrations` after step 15 (held junk found at once,
/// the settings' fingerprint per host).
extension Schema {
    /// 15 → 16: the wake targets the mass-deletion guard held and that were never answered 200,
    /// by app, environment and registration time: at the unproven cap a new token evicts the
    /// oldest of its scope (SPEC 5, guard), and a refused one must not cost a walk over every
    /// registration while the writer holds the database.
    ///
    /// And the APNs settings' fingerprint is kept per host (`LIVEACTIVITY_HOST_NAME`): hosts with
    /// different settings sharing one row flipped it at every run, and each flip made every held
    /// row due. The one row kept before is no host's; each host's first run keeps its own.
    static let toVersion16 = """
        CREATE INDEX push_targets_held_junk ON push_targets(app, environment, registered_at)
            WHERE push_kind = 'wake' AND guard_holds > 0 AND last_push_at IS NULL;
        DROP TABLE sweep_settings;
        CREATE TABLE sweep_settings (
            host TEXT PRIMARY KEY,
            fingerprint TEXT NOT NULL
        ) WITHOUT ROWID;
        """
}
