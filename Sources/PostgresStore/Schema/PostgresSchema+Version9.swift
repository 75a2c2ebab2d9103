/// Schema step 8 → 9, appended to `PostgresSchema.migrations` after step 8 (the wakes the
/// cadence withheld).
extension PostgresSchema {
    /// 8 → 9, SQLite's step 18: the wakes each run's cadence withheld, per app, type, environment
    /// and reason (SPEC 5, "Cadence"), kept with the run history and pruned with it, and their
    /// lifetime totals. Whoever may read the run history may read them (as step 3 granted its
    /// tables): the responder's figures read them.
    static let toVersion9 = """
        CREATE TABLE sweep_run_withheld (
            started_at bigint NOT NULL,
            run_id bigint NOT NULL,
            app text NOT NULL,
            activity_type text NOT NULL,
            environment text NOT NULL,
            reason text NOT NULL,
            count bigint NOT NULL,
            PRIMARY KEY (run_id, app, activity_type, environment, reason)
        );
        CREATE INDEX sweep_run_withheld_by_start ON sweep_run_withheld (started_at);
        CREATE TABLE sweep_withheld_totals (
            app text NOT NULL,
            activity_type text NOT NULL,
            environment text NOT NULL,
            reason text NOT NULL,
            count bigint NOT NULL,
            PRIMARY KEY (app, activity_type, environment, reason)
        );
        DO $$
        DECLARE reader oid;
        BEGIN
            FOR reader IN SELECT DISTINCT a.grantee FROM pg_class c, aclexplode(c.relacl) a
                WHERE c.oid = 'sweep_runs'::regclass AND a.privilege_type = 'SELECT' AND a.grantee <> c.relowner
            LOOP
                EXECUTE format('GRANT SELECT ON sweep_run_withheld, sweep_withheld_totals TO %s',
                    CASE WHEN reader = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(reader)) END);
            END LOOP;
        END $$;
        """
}
