/// Schema step 6 → 7, appended to `Schema.migrations` after step 6.
extension Schema {
    /// 6 → 7: the environments in which a push was ever answered 200 (SPEC 5). The mass-deletion
    /// guard holds BadDeviceToken answers as "a fresh deployment pointed at the wrong place" only
    /// where this database never delivered; judged by one sweep, junk in a quiet environment
    /// (no real device due) was held, never deleted, and pushed every interval. A trigger adds the
    /// environment at a registration's first 200 (`last_push_at` set from NULL), in the outcome's
    /// own transaction, so later 200s pay only its WHEN. Seeded from the proven registrations:
    /// the lifetime totals count 200s but not by environment. (Version 9 drops the trigger: the
    /// sweep's outcome batch keeps the table since.)
    static let toVersion7 = """
        CREATE TABLE delivered_environments (
            environment TEXT PRIMARY KEY NOT NULL,
            first_delivered_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        INSERT INTO delivered_environments (environment, first_delivered_at)
            SELECT environment, min(last_push_at) FROM registrations WHERE last_push_at IS NOT NULL GROUP BY environment;
        CREATE TRIGGER registrations_first_delivery AFTER UPDATE OF last_push_at ON registrations
            WHEN old.last_push_at IS NULL AND new.last_push_at IS NOT NULL
        BEGIN
            INSERT OR IGNORE INTO delivered_environments (environment, first_delivered_at)
                VALUES (new.environment, new.last_push_at);
        END;
        """
}
