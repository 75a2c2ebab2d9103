/// Schema step 4 → 5, appended to `PostgresSchema.migrations` after step 4 (every figure that
/// counts pushes, per app).
extension PostgresSchema {
    /// 4 → 5, SQLite's step 14: every figure that counts pushes counts them per app where there
    /// are several (SPEC 7), as step 4 made the registrations, targets and faults an app's: the
    /// hourly delivery figures, acks by outcome per hour and their lifetime totals and delays, a
    /// run's counts per kind and their lifetime totals gain the app, the last column of each key.
    /// What was recorded so far belongs to the default app, and so does a row written without
    /// one. Altered in place: the tables keep their grants (the responder's role writes the acks'
    /// and the hours' figures, and reads the run history's).
    static let toVersion5 = """
        ALTER TABLE delivery_hours ADD COLUMN app text NOT NULL DEFAULT 'default';
        ALTER TABLE delivery_hours DROP CONSTRAINT delivery_hours_pkey,
            ADD PRIMARY KEY (hour, push_kind, activity_type, environment, app);

        ALTER TABLE ack_hours ADD COLUMN app text NOT NULL DEFAULT 'default';
        ALTER TABLE ack_hours DROP CONSTRAINT ack_hours_pkey, ADD PRIMARY KEY (hour, outcome, app);
        ALTER TABLE ack_totals ADD COLUMN app text NOT NULL DEFAULT 'default';
        ALTER TABLE ack_totals DROP CONSTRAINT ack_totals_pkey, ADD PRIMARY KEY (outcome, app);
        ALTER TABLE ack_delay_totals ADD COLUMN app text NOT NULL DEFAULT 'default';
        ALTER TABLE ack_delay_totals DROP CONSTRAINT ack_delay_totals_pkey, ADD PRIMARY KEY (bucket, app);

        ALTER TABLE sweep_run_kinds ADD COLUMN app text NOT NULL DEFAULT 'default';
        ALTER TABLE sweep_run_kinds DROP CONSTRAINT sweep_run_kinds_pkey, ADD PRIMARY KEY (run_id, push_kind, app);
        ALTER TABLE sweep_kind_totals ADD COLUMN app text NOT NULL DEFAULT 'default';
        ALTER TABLE sweep_kind_totals DROP CONSTRAINT sweep_kind_totals_pkey, ADD PRIMARY KEY (push_kind, app);
        """
}
