/// Schema step 5 → 6, appended to `Schema.migrations` after step 5.
extension Schema {
    /// 5 → 6: what `stats` and `/wakeup/metrics` show of faults and back-off. The registrations
    /// waiting after failures, by environment, from a covering partial index that holds only them
    /// (a 200 on a row that never failed leaves it untouched, so the happy path pays nothing);
    /// each sweep's faults (at most one per environment and kind), pruned with the run history;
    /// and their lifetime totals, kept by a trigger like step 5's, which never go down.
    static let toVersion6 = """
        CREATE INDEX registrations_backing_off ON registrations(environment, consecutive_failures)
            WHERE consecutive_failures > 0;
        CREATE TABLE sweep_faults (
            run_id INTEGER NOT NULL,
            environment TEXT NOT NULL,
            kind TEXT NOT NULL,
            reason TEXT NOT NULL,
            pushes INTEGER NOT NULL,
            PRIMARY KEY (run_id, environment, kind)
        ) WITHOUT ROWID;
        CREATE TABLE sweep_fault_totals (
            environment TEXT NOT NULL,
            kind TEXT NOT NULL,
            reason TEXT NOT NULL,
            runs INTEGER NOT NULL,
            pushes INTEGER NOT NULL,
            last_at INTEGER NOT NULL,
            PRIMARY KEY (environment, kind, reason)
        ) WITHOUT ROWID;
        CREATE TRIGGER sweep_faults_totalled AFTER INSERT ON sweep_faults BEGIN
            INSERT INTO sweep_fault_totals (environment, kind, reason, runs, pushes, last_at)
                VALUES (new.environment, new.kind, new.reason, 1, new.pushes,
                        (SELECT started_at FROM sweep_runs WHERE id = new.run_id))
                ON CONFLICT (environment, kind, reason) DO UPDATE SET runs = runs + 1,
                    pushes = pushes + excluded.pushes, last_at = max(last_at, excluded.last_at);
        END;
        """
}
