/// Schema step 3 → 4, appended to `PostgresSchema.migrations` after step 3 (several apps, issue 34).
extension PostgresSchema {
    /// 3 → 4: a registration is one per app and device token (SPEC 3, 4, 6 "Several apps"): the
    /// same token registered for two apps is two registrations. Every target gains its app, part
    /// of its key after the registration's token and the kind (so a one-app deployment's due
    /// order is as before), and so do the counters, so the caps count per app, and the guard's
    /// "ever delivered" and the faults recorded, which are an app's (SPEC 5, 6). What was stored
    /// so far belongs to the default app, and so does a row written without one. Altered in
    /// place: the tables keep their grants.
    static let toVersion4 = """
        ALTER TABLE push_targets ADD COLUMN app text NOT NULL DEFAULT 'default';
        ALTER TABLE push_targets DROP CONSTRAINT push_targets_pkey, ADD PRIMARY KEY (registration_token, push_kind, app);
        DROP INDEX push_targets_due;
        CREATE INDEX push_targets_due ON push_targets (next_push_at, registration_token, push_kind, app);

        ALTER TABLE target_groups ADD COLUMN app text NOT NULL DEFAULT 'default';
        ALTER TABLE target_groups DROP CONSTRAINT target_groups_pkey,
            ADD PRIMARY KEY (push_kind, environment, activity_type, app);

        ALTER TABLE delivered_scopes ADD COLUMN app text NOT NULL DEFAULT 'default';
        ALTER TABLE delivered_scopes DROP CONSTRAINT delivered_scopes_pkey, ADD PRIMARY KEY (environment, push_kind, app);
        ALTER TABLE sweep_faults ADD COLUMN app text NOT NULL DEFAULT 'default';
        ALTER TABLE sweep_faults DROP CONSTRAINT sweep_faults_pkey, ADD PRIMARY KEY (run_id, environment, push_kind, kind, app);
        ALTER TABLE sweep_fault_totals ADD COLUMN app text NOT NULL DEFAULT 'default';
        ALTER TABLE sweep_fault_totals DROP CONSTRAINT sweep_fault_totals_pkey,
            ADD PRIMARY KEY (environment, push_kind, kind, reason, app);
        """
}
