/// Schema step 11 → 12, appended to `Schema.migrations` after step 11 (push targets, issue 31).
extension Schema {
    /// 11 → 12: the push target is the unit the sweep works on (SPEC 1, 4). A registration owns
    /// one wake target and at most one widgets target; each is a row of `push_targets` keyed by
    /// the registration's device token and the kind, with its own token, interval, due time,
    /// failures, reason, attempts and guard holds, and its registration's facts (type,
    /// environment, times) beside them: the sweep reads and writes one row per push, with no
    /// join, and only the API's registration write changes the facts, on every target of the
    /// registration at once. Every registration becomes its wake target, history and all.
    /// - The counters (`target_groups`) count targets per kind, type and environment; the
    ///   registrations are the wake targets. No trigger keeps them any more, nor the run history's
    ///   lifetime totals: the writes that change them add the deltas the rules above the engines
    ///   decide (`TargetCounting`, `record`), in the same transaction, so every engine - the
    ///   in-memory one too - counts alike and no rule of counting lives in SQL.
    /// - The due order is (next push, registration, kind). registered_at has two partial
    ///   indexes, the wake targets' and the others': the figures count registrations as a plain
    ///   range of the first (no kind compared per entry), and expiry deletes both ranges. A
    ///   partial index finds a widget extension's token for `history`.
    /// - `delivered_scopes` (the guard's "ever delivered") and every per-run and hourly figure
    ///   gain the push kind; a run's counts per kind move to `sweep_run_kinds`, its totals to
    ///   `sweep_kind_totals`. What was recorded so far was all wakes, and is kept as such.
    static let toVersion12 = """
        CREATE TABLE push_targets (
            registration_token TEXT NOT NULL,
            push_kind TEXT NOT NULL,
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
            PRIMARY KEY (registration_token, push_kind)
        ) WITHOUT ROWID;
        INSERT INTO push_targets (registration_token, push_kind, push_token, activity_type, environment, registered_at,
            expires_at, requested_interval, next_push_at, last_push_at, push_count, consecutive_failures, last_error,
            attempts, waiting_ack_at, guard_holds)
        SELECT push_token, 'wake', push_token, activity_type, environment, registered_at, expires_at, requested_interval,
            next_push_at, last_push_at, wakeup_count, consecutive_failures, last_error, attempts, waiting_ack_at, guard_holds
        FROM registrations;
        DROP TABLE registrations;
        CREATE INDEX push_targets_due ON push_targets(next_push_at, registration_token, push_kind);
        CREATE INDEX push_targets_by_registered ON push_targets(registered_at) WHERE push_kind = 'wake';
        CREATE INDEX push_targets_others_by_registered ON push_targets(registered_at) WHERE push_kind <> 'wake';
        CREATE INDEX push_targets_by_wakeups ON push_targets(push_count) WHERE push_count > 0 AND push_kind = 'wake';
        CREATE INDEX push_targets_backing_off ON push_targets(environment, push_kind, consecutive_failures)
            WHERE consecutive_failures > 0;
        CREATE INDEX push_targets_waiting_ack ON push_targets(waiting_ack_at) WHERE waiting_ack_at IS NOT NULL;
        CREATE INDEX push_targets_by_own_token ON push_targets(push_token) WHERE push_kind <> 'wake';

        CREATE TABLE target_groups (
            activity_type TEXT NOT NULL,
            environment TEXT NOT NULL,
            push_kind TEXT NOT NULL,
            n INTEGER NOT NULL DEFAULT 0,
            unproven INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (push_kind, environment, activity_type)
        ) WITHOUT ROWID;
        INSERT INTO target_groups (activity_type, environment, push_kind, n, unproven)
            SELECT activity_type, environment, push_kind, count(*), sum(last_push_at IS NULL)
            FROM push_targets GROUP BY 1, 2, 3;
        DROP TABLE registration_groups;

        CREATE TABLE delivered_scopes (
            environment TEXT NOT NULL,
            push_kind TEXT NOT NULL,
            first_delivered_at INTEGER NOT NULL,
            PRIMARY KEY (environment, push_kind)
        ) WITHOUT ROWID;
        INSERT INTO delivered_scopes (environment, push_kind, first_delivered_at)
            SELECT environment, 'wake', first_delivered_at FROM delivered_environments;
        DROP TABLE delivered_environments;

        CREATE TABLE sweep_run_kinds (
            started_at INTEGER NOT NULL,
            run_id INTEGER NOT NULL,
            push_kind TEXT NOT NULL,
            active INTEGER NOT NULL,
            sent INTEGER NOT NULL,
            skipped INTEGER NOT NULL,
            failed INTEGER NOT NULL,
            removed INTEGER NOT NULL,
            held INTEGER NOT NULL,
            PRIMARY KEY (started_at, run_id, push_kind)
        ) WITHOUT ROWID;
        INSERT INTO sweep_run_kinds (started_at, run_id, push_kind, active, sent, skipped, failed, removed, held)
            SELECT started_at, id, 'wake', active, sent, skipped, failed, removed, 0 FROM sweep_runs;
        CREATE TABLE sweep_kind_totals (
            push_kind TEXT PRIMARY KEY NOT NULL,
            sent INTEGER NOT NULL,
            failed INTEGER NOT NULL,
            removed INTEGER NOT NULL
        ) WITHOUT ROWID;
        INSERT INTO sweep_kind_totals (push_kind, sent, failed, removed) SELECT 'wake', sent, failed, removed FROM sweep_totals;
        DROP TRIGGER sweep_runs_totalled;
        DROP TRIGGER sweep_reasons_totalled;
        DROP TRIGGER sweep_faults_totalled;
        ALTER TABLE sweep_runs DROP COLUMN active;
        ALTER TABLE sweep_runs DROP COLUMN sent;
        ALTER TABLE sweep_runs DROP COLUMN skipped;
        ALTER TABLE sweep_runs DROP COLUMN removed;
        ALTER TABLE sweep_runs DROP COLUMN failed;
        ALTER TABLE sweep_totals DROP COLUMN sent;
        ALTER TABLE sweep_totals DROP COLUMN failed;
        ALTER TABLE sweep_totals DROP COLUMN removed;

        CREATE TABLE sweep_reasons_new (
            run_id INTEGER NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('failed', 'removed')),
            push_kind TEXT NOT NULL,
            reason TEXT NOT NULL,
            count INTEGER NOT NULL,
            PRIMARY KEY (run_id, kind, push_kind, reason)
        ) WITHOUT ROWID;
        INSERT INTO sweep_reasons_new (run_id, kind, push_kind, reason, count)
            SELECT run_id, kind, 'wake', reason, count FROM sweep_reasons;
        DROP TABLE sweep_reasons;
        ALTER TABLE sweep_reasons_new RENAME TO sweep_reasons;
        CREATE TABLE sweep_reason_totals_new (
            kind TEXT NOT NULL,
            push_kind TEXT NOT NULL,
            reason TEXT NOT NULL,
            count INTEGER NOT NULL,
            PRIMARY KEY (kind, push_kind, reason)
        ) WITHOUT ROWID;
        INSERT INTO sweep_reason_totals_new (kind, push_kind, reason, count)
            SELECT kind, 'wake', reason, count FROM sweep_reason_totals;
        DROP TABLE sweep_reason_totals;
        ALTER TABLE sweep_reason_totals_new RENAME TO sweep_reason_totals;

        CREATE TABLE sweep_faults_new (
            run_id INTEGER NOT NULL,
            environment TEXT NOT NULL,
            push_kind TEXT NOT NULL,
            kind TEXT NOT NULL,
            reason TEXT NOT NULL,
            pushes INTEGER NOT NULL,
            PRIMARY KEY (run_id, environment, push_kind, kind)
        ) WITHOUT ROWID;
        INSERT INTO sweep_faults_new (run_id, environment, push_kind, kind, reason, pushes)
            SELECT run_id, environment, '', kind, reason, pushes FROM sweep_faults;
        DROP TABLE sweep_faults;
        ALTER TABLE sweep_faults_new RENAME TO sweep_faults;
        CREATE TABLE sweep_fault_totals_new (
            environment TEXT NOT NULL,
            push_kind TEXT NOT NULL,
            kind TEXT NOT NULL,
            reason TEXT NOT NULL,
            runs INTEGER NOT NULL,
            pushes INTEGER NOT NULL,
            last_at INTEGER NOT NULL,
            PRIMARY KEY (environment, push_kind, kind, reason)
        ) WITHOUT ROWID;
        INSERT INTO sweep_fault_totals_new (environment, push_kind, kind, reason, runs, pushes, last_at)
            SELECT environment, '', kind, reason, runs, pushes, last_at FROM sweep_fault_totals;
        DROP TABLE sweep_fault_totals;
        ALTER TABLE sweep_fault_totals_new RENAME TO sweep_fault_totals;

        CREATE TABLE delivery_hours_new (
            hour INTEGER NOT NULL,
            activity_type TEXT NOT NULL,
            environment TEXT NOT NULL,
            push_kind TEXT NOT NULL,
            registrations INTEGER NOT NULL DEFAULT 0,
            delivered INTEGER NOT NULL DEFAULT 0,
            acked INTEGER NOT NULL DEFAULT 0,
            delay_sum_ms INTEGER NOT NULL DEFAULT 0,
            d0 INTEGER NOT NULL DEFAULT 0, d1 INTEGER NOT NULL DEFAULT 0, d2 INTEGER NOT NULL DEFAULT 0,
            d3 INTEGER NOT NULL DEFAULT 0, d4 INTEGER NOT NULL DEFAULT 0, d5 INTEGER NOT NULL DEFAULT 0,
            d6 INTEGER NOT NULL DEFAULT 0, d7 INTEGER NOT NULL DEFAULT 0, d8 INTEGER NOT NULL DEFAULT 0,
            d9 INTEGER NOT NULL DEFAULT 0, d10 INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (hour, push_kind, activity_type, environment)
        ) WITHOUT ROWID;
        INSERT INTO delivery_hours_new
            SELECT hour, activity_type, environment, 'wake', registrations, delivered, acked, delay_sum_ms,
                d0, d1, d2, d3, d4, d5, d6, d7, d8, d9, d10
            FROM delivery_hours;
        DROP TABLE delivery_hours;
        ALTER TABLE delivery_hours_new RENAME TO delivery_hours;
        """
}
