/// Version 1: the whole of SQLite's version 10 at once (this engine starts there), plus what
/// several hosts sharing the database need (SPEC 5, "Several hosts"): the lease a sweep stamps on
/// the rows it claims, the host in the run history. Counters the responder and the figures read
/// are kept by triggers, as on SQLite; a first 200 lowers the unproven count from the sweep's
/// batch (`markProven`). The provider token has a table of its own that the responder's role is
/// never granted (docs/POSTGRESQL.md: the roles and their grants).
extension PostgresSchema {
    static let toVersion1 = """
        CREATE TABLE IF NOT EXISTS liveactivity_schema (version bigint NOT NULL);
        INSERT INTO liveactivity_schema (version) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM liveactivity_schema);

        CREATE FUNCTION liveactivity_now_ms() RETURNS bigint LANGUAGE sql VOLATILE
            AS $$ SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint $$;

        CREATE TABLE registrations (
            push_token text PRIMARY KEY,
            activity_type text NOT NULL,
            environment text NOT NULL,
            registered_at bigint NOT NULL,
            expires_at bigint NOT NULL,
            next_push_at bigint NOT NULL,
            last_push_at bigint,
            wakeup_count bigint NOT NULL DEFAULT 0,
            consecutive_failures bigint NOT NULL DEFAULT 0,
            last_error text,
            requested_interval bigint,
            attempts bytea[] NOT NULL DEFAULT '{}',
            waiting_ack_at bigint,
            lease_id text,
            lease_host text,
            lease_until bigint
        );
        CREATE INDEX registrations_by_next_push ON registrations (next_push_at, push_token);
        CREATE INDEX registrations_by_registered ON registrations (registered_at);
        CREATE INDEX registrations_by_wakeups ON registrations (wakeup_count) WHERE wakeup_count > 0;
        CREATE INDEX registrations_backing_off ON registrations (environment) WHERE consecutive_failures > 0;
        CREATE INDEX registrations_waiting_ack ON registrations (push_token) WHERE waiting_ack_at IS NOT NULL;
        CREATE INDEX registrations_by_lease ON registrations (lease_id) WHERE lease_until IS NOT NULL;

        CREATE TABLE registration_groups (
            activity_type text NOT NULL,
            environment text NOT NULL,
            n bigint NOT NULL DEFAULT 0,
            unproven bigint NOT NULL DEFAULT 0,
            PRIMARY KEY (activity_type, environment)
        );
        CREATE FUNCTION liveactivity_group_count() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP IN ('DELETE', 'UPDATE') THEN
                UPDATE registration_groups SET n = n - 1, unproven = unproven - (OLD.last_push_at IS NULL)::int
                    WHERE activity_type = OLD.activity_type AND environment = OLD.environment;
            END IF;
            IF TG_OP IN ('INSERT', 'UPDATE') THEN
                INSERT INTO registration_groups AS g (activity_type, environment, n, unproven)
                    VALUES (NEW.activity_type, NEW.environment, 1, (NEW.last_push_at IS NULL)::int)
                    ON CONFLICT (activity_type, environment) DO UPDATE SET n = g.n + 1, unproven = g.unproven + excluded.unproven;
            END IF;
            RETURN NULL;
        END $$;
        CREATE TRIGGER registrations_grouped_insert AFTER INSERT ON registrations
            FOR EACH ROW EXECUTE FUNCTION liveactivity_group_count();
        CREATE TRIGGER registrations_grouped_delete AFTER DELETE ON registrations
            FOR EACH ROW EXECUTE FUNCTION liveactivity_group_count();
        CREATE TRIGGER registrations_grouped_update AFTER UPDATE OF activity_type, environment ON registrations
            FOR EACH ROW WHEN (OLD.activity_type IS DISTINCT FROM NEW.activity_type OR OLD.environment IS DISTINCT FROM NEW.environment)
            EXECUTE FUNCTION liveactivity_group_count();

        CREATE TABLE sweep_runs (
            id bigserial PRIMARY KEY,
            started_at bigint NOT NULL,
            duration_ms bigint NOT NULL,
            active bigint NOT NULL,
            sent bigint NOT NULL,
            skipped bigint NOT NULL,
            expired bigint NOT NULL,
            removed bigint NOT NULL,
            failed bigint NOT NULL,
            outcome text NOT NULL,
            host text NOT NULL DEFAULT ''
        );
        CREATE INDEX sweep_runs_by_start ON sweep_runs (started_at);
        CREATE TABLE sweep_reasons (
            run_id bigint NOT NULL,
            kind text NOT NULL CHECK (kind IN ('failed', 'removed')),
            reason text NOT NULL,
            count bigint NOT NULL,
            PRIMARY KEY (run_id, kind, reason)
        );
        CREATE TABLE sweep_faults (
            run_id bigint NOT NULL,
            environment text NOT NULL,
            kind text NOT NULL,
            reason text NOT NULL,
            pushes bigint NOT NULL,
            PRIMARY KEY (run_id, environment, kind)
        );
        CREATE TABLE sweep_totals (
            id int PRIMARY KEY CHECK (id = 1),
            runs bigint NOT NULL, sent bigint NOT NULL, failed bigint NOT NULL, removed bigint NOT NULL, expired bigint NOT NULL
        );
        INSERT INTO sweep_totals VALUES (1, 0, 0, 0, 0, 0);
        CREATE TABLE sweep_reason_totals (kind text NOT NULL, reason text NOT NULL, count bigint NOT NULL, PRIMARY KEY (kind, reason));
        CREATE TABLE sweep_fault_totals (
            environment text NOT NULL, kind text NOT NULL, reason text NOT NULL,
            runs bigint NOT NULL, pushes bigint NOT NULL, last_at bigint NOT NULL,
            PRIMARY KEY (environment, kind, reason)
        );
        CREATE FUNCTION liveactivity_run_totals() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_TABLE_NAME = 'sweep_runs' THEN
                UPDATE sweep_totals SET runs = runs + 1, sent = sent + NEW.sent, failed = failed + NEW.failed,
                    removed = removed + NEW.removed, expired = expired + NEW.expired WHERE id = 1;
            ELSIF TG_TABLE_NAME = 'sweep_reasons' THEN
                INSERT INTO sweep_reason_totals AS t (kind, reason, count) VALUES (NEW.kind, NEW.reason, NEW.count)
                    ON CONFLICT (kind, reason) DO UPDATE SET count = t.count + excluded.count;
            ELSE
                INSERT INTO sweep_fault_totals AS t (environment, kind, reason, runs, pushes, last_at)
                    VALUES (NEW.environment, NEW.kind, NEW.reason, 1, NEW.pushes,
                            (SELECT started_at FROM sweep_runs WHERE id = NEW.run_id))
                    ON CONFLICT (environment, kind, reason) DO UPDATE SET runs = t.runs + 1,
                        pushes = t.pushes + excluded.pushes, last_at = greatest(t.last_at, excluded.last_at);
            END IF;
            RETURN NULL;
        END $$;
        CREATE TRIGGER sweep_runs_totalled AFTER INSERT ON sweep_runs FOR EACH ROW EXECUTE FUNCTION liveactivity_run_totals();
        CREATE TRIGGER sweep_reasons_totalled AFTER INSERT ON sweep_reasons FOR EACH ROW EXECUTE FUNCTION liveactivity_run_totals();
        CREATE TRIGGER sweep_faults_totalled AFTER INSERT ON sweep_faults FOR EACH ROW EXECUTE FUNCTION liveactivity_run_totals();

        CREATE TABLE delivered_environments (environment text PRIMARY KEY, first_delivered_at bigint NOT NULL);
        CREATE TABLE delivery_hours (
            hour bigint NOT NULL,
            activity_type text NOT NULL,
            environment text NOT NULL,
            registrations bigint NOT NULL DEFAULT 0,
            delivered bigint NOT NULL DEFAULT 0,
            acked bigint NOT NULL DEFAULT 0,
            delay_sum_ms bigint NOT NULL DEFAULT 0,
            d0 bigint NOT NULL DEFAULT 0, d1 bigint NOT NULL DEFAULT 0, d2 bigint NOT NULL DEFAULT 0,
            d3 bigint NOT NULL DEFAULT 0, d4 bigint NOT NULL DEFAULT 0, d5 bigint NOT NULL DEFAULT 0,
            d6 bigint NOT NULL DEFAULT 0, d7 bigint NOT NULL DEFAULT 0, d8 bigint NOT NULL DEFAULT 0,
            d9 bigint NOT NULL DEFAULT 0, d10 bigint NOT NULL DEFAULT 0,
            PRIMARY KEY (hour, activity_type, environment)
        );
        CREATE TABLE ack_hours (hour bigint NOT NULL, outcome text NOT NULL, count bigint NOT NULL, PRIMARY KEY (hour, outcome));
        CREATE TABLE ack_totals (outcome text PRIMARY KEY, count bigint NOT NULL, delay_sum_ms bigint NOT NULL DEFAULT 0);
        CREATE TABLE ack_delay_totals (bucket bigint PRIMARY KEY, count bigint NOT NULL);
        CREATE TABLE sweep_settings (id int PRIMARY KEY CHECK (id = 1), fingerprint text NOT NULL);
        CREATE TABLE provider_token (
            id int PRIMARY KEY CHECK (id = 1),
            cache_key text NOT NULL,
            token text NOT NULL,
            issued_at bigint NOT NULL
        );
        """
}
