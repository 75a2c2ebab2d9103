/// Version 3 (push targets, issue 31), SQLite's step 12 on PostgreSQL: the push target is the
/// unit the sweep works on (SPEC 1, 4). A registration owns one wake target and at most one
/// widgets target, each a row of `push_targets` keyed by the registration's device token and the
/// kind, carrying its registration's facts (type, environment, times) and, here, its own lease.
/// Every registration becomes its wake target, history, counts and leases kept.
///
/// Tables are renamed and altered in place rather than copied, as SQLite must: a table keeps its
/// grants through a rename, so the responder's role keeps what docs/POSTGRESQL.md gave it on
/// `registrations` and `registration_groups` (now `push_targets`, `target_groups`), on
/// `delivery_hours` and on the run history. The two tables that are new, the run's counts per
/// kind and their totals, are granted to whoever could read `sweep_runs`: the figures read them.
/// - The counters (`target_groups`) count targets per kind, type and environment, recounted from
///   the rows; the registrations are the wake targets. No trigger keeps them any more, nor the
///   run history's lifetime totals: the writes that change them add the deltas the rules above
///   the engines decide (`TargetCounting`, `RunRecord`), in the same transaction.
/// - The due order is (next push, registration, kind); the registered_at index carries the kind;
///   a partial index finds a widget extension's own token for `history`.
/// - `delivered_scopes` (the guard's "ever delivered") and every per-run and hourly figure gain
///   the push kind (a fault of a whole environment has none: ''); a run's counts per kind move to
///   `sweep_run_kinds`, their totals to `sweep_kind_totals`. What was recorded so far was all
///   wakes, and is kept as such.
extension PostgresSchema {
    static let toVersion3 = """
        ALTER TABLE registrations RENAME TO push_targets;
        DROP INDEX registrations_by_next_push, registrations_by_registered, registrations_by_wakeups,
            registrations_backing_off;
        ALTER TABLE push_targets DROP CONSTRAINT registrations_pkey;
        ALTER TABLE push_targets RENAME COLUMN push_token TO registration_token;
        ALTER TABLE push_targets RENAME COLUMN wakeup_count TO push_count;
        ALTER TABLE push_targets ADD COLUMN push_kind text NOT NULL DEFAULT 'wake', ADD COLUMN push_token text;
        ALTER TABLE push_targets ALTER COLUMN push_kind DROP DEFAULT;
        UPDATE push_targets SET push_token = registration_token;
        ALTER TABLE push_targets ALTER COLUMN push_token SET NOT NULL, ADD PRIMARY KEY (registration_token, push_kind);
        CREATE INDEX push_targets_due ON push_targets (next_push_at, registration_token, push_kind);
        CREATE INDEX push_targets_by_registered ON push_targets (registered_at, push_kind);
        CREATE INDEX push_targets_by_wakeups ON push_targets (push_count) WHERE push_count > 0 AND push_kind = 'wake';
        CREATE INDEX push_targets_backing_off ON push_targets (environment, push_kind) WHERE consecutive_failures > 0;
        ALTER INDEX registrations_waiting_ack RENAME TO push_targets_waiting_ack;
        ALTER INDEX registrations_by_lease RENAME TO push_targets_by_lease;
        CREATE INDEX push_targets_by_own_token ON push_targets (push_token) WHERE push_kind <> 'wake';

        ALTER TABLE registration_groups RENAME TO target_groups;
        ALTER TABLE target_groups ADD COLUMN push_kind text NOT NULL DEFAULT 'wake';
        ALTER TABLE target_groups ALTER COLUMN push_kind DROP DEFAULT;
        ALTER TABLE target_groups DROP CONSTRAINT registration_groups_pkey,
            ADD PRIMARY KEY (push_kind, environment, activity_type);
        DELETE FROM target_groups;
        INSERT INTO target_groups (activity_type, environment, push_kind, n, unproven)
            SELECT activity_type, environment, push_kind, count(*), count(*) FILTER (WHERE last_push_at IS NULL)
            FROM push_targets GROUP BY 1, 2, 3;
        -- The counters follow the writes that change them (`TargetCounting`), not triggers.
        DROP TRIGGER registrations_grouped_insert ON push_targets;
        DROP TRIGGER registrations_grouped_delete ON push_targets;
        DROP TRIGGER registrations_grouped_update ON push_targets;
        DROP FUNCTION liveactivity_group_count();

        ALTER TABLE delivered_environments RENAME TO delivered_scopes;
        ALTER TABLE delivered_scopes ADD COLUMN push_kind text NOT NULL DEFAULT 'wake';
        ALTER TABLE delivered_scopes ALTER COLUMN push_kind DROP DEFAULT;
        ALTER TABLE delivered_scopes DROP CONSTRAINT delivered_environments_pkey, ADD PRIMARY KEY (environment, push_kind);

        CREATE TABLE sweep_run_kinds (
            started_at bigint NOT NULL,
            run_id bigint NOT NULL,
            push_kind text NOT NULL,
            active bigint NOT NULL,
            sent bigint NOT NULL,
            skipped bigint NOT NULL,
            failed bigint NOT NULL,
            removed bigint NOT NULL,
            held bigint NOT NULL,
            PRIMARY KEY (run_id, push_kind)
        );
        -- The run's start repeated, so the day's and week's figures read a range of it alone.
        CREATE INDEX sweep_run_kinds_by_start ON sweep_run_kinds (started_at, push_kind);
        INSERT INTO sweep_run_kinds (started_at, run_id, push_kind, active, sent, skipped, failed, removed, held)
            SELECT started_at, id, 'wake', active, sent, skipped, failed, removed, 0 FROM sweep_runs;
        CREATE TABLE sweep_kind_totals (
            push_kind text PRIMARY KEY,
            sent bigint NOT NULL,
            failed bigint NOT NULL,
            removed bigint NOT NULL
        );
        INSERT INTO sweep_kind_totals (push_kind, sent, failed, removed) SELECT 'wake', sent, failed, removed FROM sweep_totals;
        ALTER TABLE sweep_runs DROP COLUMN active, DROP COLUMN sent, DROP COLUMN skipped, DROP COLUMN removed,
            DROP COLUMN failed;
        ALTER TABLE sweep_totals DROP COLUMN sent, DROP COLUMN failed, DROP COLUMN removed;
        DO $$
        DECLARE reader oid;
        BEGIN
            FOR reader IN SELECT DISTINCT a.grantee FROM pg_class c, aclexplode(c.relacl) a
                WHERE c.oid = 'sweep_runs'::regclass AND a.privilege_type = 'SELECT' AND a.grantee <> c.relowner
            LOOP
                EXECUTE format('GRANT SELECT ON sweep_run_kinds, sweep_kind_totals TO %s',
                    CASE WHEN reader = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(reader)) END);
            END LOOP;
        END $$;

        ALTER TABLE sweep_reasons ADD COLUMN push_kind text NOT NULL DEFAULT 'wake';
        ALTER TABLE sweep_reasons ALTER COLUMN push_kind DROP DEFAULT;
        ALTER TABLE sweep_reasons DROP CONSTRAINT sweep_reasons_pkey, ADD PRIMARY KEY (run_id, kind, push_kind, reason);
        ALTER TABLE sweep_reason_totals ADD COLUMN push_kind text NOT NULL DEFAULT 'wake';
        ALTER TABLE sweep_reason_totals ALTER COLUMN push_kind DROP DEFAULT;
        ALTER TABLE sweep_reason_totals DROP CONSTRAINT sweep_reason_totals_pkey, ADD PRIMARY KEY (kind, push_kind, reason);
        ALTER TABLE sweep_faults ADD COLUMN push_kind text NOT NULL DEFAULT '';
        ALTER TABLE sweep_faults ALTER COLUMN push_kind DROP DEFAULT;
        ALTER TABLE sweep_faults DROP CONSTRAINT sweep_faults_pkey, ADD PRIMARY KEY (run_id, environment, push_kind, kind);
        ALTER TABLE sweep_fault_totals ADD COLUMN push_kind text NOT NULL DEFAULT '';
        ALTER TABLE sweep_fault_totals ALTER COLUMN push_kind DROP DEFAULT;
        ALTER TABLE sweep_fault_totals DROP CONSTRAINT sweep_fault_totals_pkey,
            ADD PRIMARY KEY (environment, push_kind, kind, reason);
        -- A run adds to the lifetime totals as it is recorded (`RunRecord`), not through triggers.
        DROP TRIGGER sweep_runs_totalled ON sweep_runs;
        DROP TRIGGER sweep_reasons_totalled ON sweep_reasons;
        DROP TRIGGER sweep_faults_totalled ON sweep_faults;
        DROP FUNCTION liveactivity_run_totals();

        ALTER TABLE delivery_hours ADD COLUMN push_kind text NOT NULL DEFAULT 'wake';
        ALTER TABLE delivery_hours ALTER COLUMN push_kind DROP DEFAULT;
        ALTER TABLE delivery_hours DROP CONSTRAINT delivery_hours_pkey,
            ADD PRIMARY KEY (hour, push_kind, activity_type, environment);
        """
}
