/// Schema step 17 → 18 (the wakes the cadence withheld).
extension Schema {
    /// 17 → 18: the wakes each run's cadence withheld, per app, type, environment and reason
    /// (SPEC 5, "Cadence"), kept with the run history (pruned with it, the run's start repeated so
    /// the day's and week's figures read a range of it alone), and their lifetime totals, which
    /// never go down.
    static let toVersion18 = """
        CREATE TABLE sweep_run_withheld (
            started_at INTEGER NOT NULL,
            run_id INTEGER NOT NULL,
            app TEXT NOT NULL,
            activity_type TEXT NOT NULL,
            environment TEXT NOT NULL,
            reason TEXT NOT NULL,
            count INTEGER NOT NULL,
            PRIMARY KEY (run_id, app, activity_type, environment, reason)
        ) WITHOUT ROWID;
        CREATE INDEX sweep_run_withheld_by_start ON sweep_run_withheld (started_at);
        CREATE TABLE sweep_withheld_totals (
            app TEXT NOT NULL,
            activity_type TEXT NOT NULL,
            environment TEXT NOT NULL,
            reason TEXT NOT NULL,
            count INTEGER NOT NULL,
            PRIMARY KEY (app, activity_type, environment, reason)
        ) WITHOUT ROWID;
        """
}
