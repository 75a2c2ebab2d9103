/// Schema step 9 → 10, appended to `Schema.migrations` after step 9 (the store's seam, issues 23
/// and 26).
extension Schema {
    /// 9 → 10:
    /// - `registration_groups.unproven`: the registrations never answered 200, per type and
    ///   environment, for `LIVEACTIVITY_MAX_UNPROVEN` without a scan. Kept by the insert and
    ///   delete triggers and by the type-and-environment one (a refresh into another environment
    ///   forgets the token's 200s); a first 200 lowers it from the sweep's outcome batch
    ///   (`markProven`), not from a trigger on the outcome's UPDATE (Schema+Version9 says why).
    /// - `registrations.waiting_ack_at`: an ack that came while its push was on its way, for the
    ///   sweep to judge when it writes that push's answer; a partial index finds the few.
    /// - `sweep_settings`: the fingerprint of the APNs settings the last sweep ran with, so a
    ///   change of them makes held registrations due at once.
    /// - `sweep_runs.host`: which host ran each sweep (`LIVEACTIVITY_HOST_NAME`).
    static let toVersion10 = """
        ALTER TABLE registration_groups ADD COLUMN unproven INTEGER NOT NULL DEFAULT 0;
        UPDATE registration_groups SET unproven = (
            SELECT count(*) FROM registrations r
            WHERE r.activity_type = registration_groups.activity_type AND r.environment = registration_groups.environment
                AND r.last_push_at IS NULL);
        DROP TRIGGER registrations_grouped_insert;
        DROP TRIGGER registrations_grouped_delete;
        DROP TRIGGER registrations_grouped_update;
        CREATE TRIGGER registrations_grouped_insert AFTER INSERT ON registrations BEGIN
            INSERT INTO registration_groups (activity_type, environment, n, unproven)
                VALUES (new.activity_type, new.environment, 1, new.last_push_at IS NULL)
                ON CONFLICT (activity_type, environment) DO UPDATE SET n = n + 1, unproven = unproven + excluded.unproven;
        END;
        CREATE TRIGGER registrations_grouped_delete AFTER DELETE ON registrations BEGIN
            UPDATE registration_groups SET n = n - 1, unproven = unproven - (old.last_push_at IS NULL)
                WHERE activity_type = old.activity_type AND environment = old.environment;
        END;
        CREATE TRIGGER registrations_grouped_update AFTER UPDATE OF activity_type, environment ON registrations
            WHEN old.activity_type IS NOT new.activity_type OR old.environment IS NOT new.environment
        BEGIN
            UPDATE registration_groups SET n = n - 1, unproven = unproven - (old.last_push_at IS NULL)
                WHERE activity_type = old.activity_type AND environment = old.environment;
            INSERT INTO registration_groups (activity_type, environment, n, unproven)
                VALUES (new.activity_type, new.environment, 1, new.last_push_at IS NULL)
                ON CONFLICT (activity_type, environment) DO UPDATE SET n = n + 1, unproven = unproven + excluded.unproven;
        END;
        ALTER TABLE registrations ADD COLUMN waiting_ack_at INTEGER;
        CREATE INDEX registrations_waiting_ack ON registrations(waiting_ack_at) WHERE waiting_ack_at IS NOT NULL;
        CREATE TABLE sweep_settings (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            fingerprint TEXT NOT NULL
        );
        ALTER TABLE sweep_runs ADD COLUMN host TEXT NOT NULL DEFAULT '';
        """
}
