/// Schema step 12 → 13, appended to `Schema.migrations` after step 12 (several apps, issue 34).
extension Schema {
    /// 12 → 13: a registration is one per app and device token (SPEC 3, 4, 6 "Several apps"): the
    /// same token registered for two apps is two registrations. Every target gains its app, part
    /// of its key after the registration's token and the kind, so the due order of a one-app
    /// deployment is as before; the counters gain it too, so the caps count per app, and so do
    /// the guard's "ever delivered" and the faults recorded, which are an app's (SPEC 5, 6). What was
    /// stored so far belongs to the default app, and so does a row written without one.
    static let toVersion13 = """
        CREATE TABLE push_targets_new (
            registration_token TEXT NOT NULL,
            push_kind TEXT NOT NULL,
            app TEXT NOT NULL DEFAULT 'default',
            push_token TEXT NOT NULL,
            activity_type TEXT NOT NULL,
            environment TEXT NOT NULL,
            registered_at INTEGER NOT NULL,
            expires_at INTEGER NOT NULL,
            requested_interval INTEGER,
            next_push_at INTEGER NOT NULL,
            last_push_at INTEGER,
            push_count INTEGER NOT NULL DEFAULT 0,
            consecutive_failures INTEGER NOT NULL DEFAULT 0,
            last_error TEXT,
            attempts BLOB,
            waiting_ack_at INTEGER,
            guard_holds INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (registration_token, push_kind, app)
        ) WITHOUT ROWID;
        INSERT INTO push_targets_new (registration_token, push_kind, app, push_token, activity_type, environment,
            registered_at, expires_at, requested_interval, next_push_at, last_push_at, push_count, consecutive_failures,
            last_error, attempts, waiting_ack_at, guard_holds)
        SELECT registration_token, push_kind, 'default', push_token, activity_type, environment, registered_at, expires_at,
            requested_interval, next_push_at, last_push_at, push_count, consecutive_failures, last_error, attempts,
            waiting_ack_at, guard_holds
        FROM push_targets;
        DROP TABLE push_targets;
        ALTER TABLE push_targets_new RENAME TO push_targets;
        CREATE INDEX push_targets_due ON push_targets(next_push_at, registration_token, push_kind, app);
        CREATE INDEX push_targets_by_registered ON push_targets(registered_at) WHERE push_kind = 'wake';
        CREATE INDEX push_targets_others_by_registered ON push_targets(registered_at) WHERE push_kind <> 'wake';
        CREATE INDEX push_targets_by_wakeups ON push_targets(push_count) WHERE push_count > 0 AND push_kind = 'wake';
        CREATE INDEX push_targets_backing_off ON push_targets(environment, push_kind, consecutive_failures)
            WHERE consecutive_failures > 0;
        CREATE INDEX push_targets_waiting_ack ON push_targets(waiting_ack_at) WHERE waiting_ack_at IS NOT NULL;
        CREATE INDEX push_targets_by_own_token ON push_targets(push_token) WHERE push_kind <> 'wake';

        CREATE TABLE target_groups_new (
            app TEXT NOT NULL DEFAULT 'default',
            activity_type TEXT NOT NULL,
            environment TEXT NOT NULL,
            push_kind TEXT NOT NULL,
            n INTEGER NOT NULL DEFAULT 0,
            unproven INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (push_kind, environment, activity_type, app)
        ) WITHOUT ROWID;
        INSERT INTO target_groups_new (app, activity_type, environment, push_kind, n, unproven)
            SELECT 'default', activity_type, environment, push_kind, n, unproven FROM target_groups;
        DROP TABLE target_groups;
        ALTER TABLE target_groups_new RENAME TO target_groups;

        CREATE TABLE delivered_scopes_new (
            app TEXT NOT NULL DEFAULT 'default',
            environment TEXT NOT NULL,
            push_kind TEXT NOT NULL,
            first_delivered_at INTEGER NOT NULL,
            PRIMARY KEY (environment, push_kind, app)
        ) WITHOUT ROWID;
        INSERT INTO delivered_scopes_new (app, environment, push_kind, first_delivered_at)
            SELECT 'default', environment, push_kind, first_delivered_at FROM delivered_scopes;
        DROP TABLE delivered_scopes;
        ALTER TABLE delivered_scopes_new RENAME TO delivered_scopes;

        CREATE TABLE sweep_faults_new (
            run_id INTEGER NOT NULL,
            app TEXT NOT NULL DEFAULT 'default',
            environment TEXT NOT NULL,
            push_kind TEXT NOT NULL,
            kind TEXT NOT NULL,
            reason TEXT NOT NULL,
            pushes INTEGER NOT NULL,
            PRIMARY KEY (run_id, environment, push_kind, kind, app)
        ) WITHOUT ROWID;
        INSERT INTO sweep_faults_new (run_id, app, environment, push_kind, kind, reason, pushes)
            SELECT run_id, 'default', environment, push_kind, kind, reason, pushes FROM sweep_faults;
        DROP TABLE sweep_faults;
        ALTER TABLE sweep_faults_new RENAME TO sweep_faults;
        CREATE TABLE sweep_fault_totals_new (
            app TEXT NOT NULL DEFAULT 'default',
            environment TEXT NOT NULL,
            push_kind TEXT NOT NULL,
            kind TEXT NOT NULL,
            reason TEXT NOT NULL,
            runs INTEGER NOT NULL,
            pushes INTEGER NOT NULL,
            last_at INTEGER NOT NULL,
            PRIMARY KEY (environment, push_kind, kind, reason, app)
        ) WITHOUT ROWID;
        INSERT INTO sweep_fault_totals_new (app, environment, push_kind, kind, reason, runs, pushes, last_at)
            SELECT 'default', environment, push_kind, kind, reason, runs, pushes, last_at FROM sweep_fault_totals;
        DROP TABLE sweep_fault_totals;
        ALTER TABLE sweep_fault_totals_new RENAME TO sweep_fault_totals;
        """
}
