/// Schema step 13 → 14, appended to `Schema.migrations` after step 13 (every figure that counts
/// pushes, per app).
extension Schema {
    /// 13 → 14: every figure that counts pushes counts them per app where there are several
    /// (SPEC 7), as step 13 made the registrations, targets and faults an app's: the hourly
    /// delivery figures, acks by outcome per hour and their lifetime totals and delays, a run's
    /// counts per kind and their lifetime totals gain the app, the last column of each key. What
    /// was recorded so far belongs to the default app, and so does a row written without one.
    /// A further app's run counts are found by a partial index of their own, so the default app's
    /// week of runs is read as a range as before, and a deployment of one app keeps that index
    /// empty.
    static let toVersion14 = """
        CREATE TABLE delivery_hours_new (
            hour INTEGER NOT NULL,
            activity_type TEXT NOT NULL,
            environment TEXT NOT NULL,
            push_kind TEXT NOT NULL,
            app TEXT NOT NULL DEFAULT 'default',
            registrations INTEGER NOT NULL DEFAULT 0,
            delivered INTEGER NOT NULL DEFAULT 0,
            acked INTEGER NOT NULL DEFAULT 0,
            delay_sum_ms INTEGER NOT NULL DEFAULT 0,
            d0 INTEGER NOT NULL DEFAULT 0, d1 INTEGER NOT NULL DEFAULT 0, d2 INTEGER NOT NULL DEFAULT 0,
            d3 INTEGER NOT NULL DEFAULT 0, d4 INTEGER NOT NULL DEFAULT 0, d5 INTEGER NOT NULL DEFAULT 0,
            d6 INTEGER NOT NULL DEFAULT 0, d7 INTEGER NOT NULL DEFAULT 0, d8 INTEGER NOT NULL DEFAULT 0,
            d9 INTEGER NOT NULL DEFAULT 0, d10 INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (hour, push_kind, activity_type, environment, app)
        ) WITHOUT ROWID;
        INSERT INTO delivery_hours_new (hour, activity_type, environment, push_kind, app, registrations, delivered, acked,
            delay_sum_ms, d0, d1, d2, d3, d4, d5, d6, d7, d8, d9, d10)
        SELECT hour, activity_type, environment, push_kind, 'default', registrations, delivered, acked, delay_sum_ms,
            d0, d1, d2, d3, d4, d5, d6, d7, d8, d9, d10
        FROM delivery_hours;
        DROP TABLE delivery_hours;
        ALTER TABLE delivery_hours_new RENAME TO delivery_hours;

        CREATE TABLE ack_hours_new (
            hour INTEGER NOT NULL,
            outcome TEXT NOT NULL,
            app TEXT NOT NULL DEFAULT 'default',
            count INTEGER NOT NULL,
            PRIMARY KEY (hour, outcome, app)
        ) WITHOUT ROWID;
        INSERT INTO ack_hours_new (hour, outcome, app, count) SELECT hour, outcome, 'default', count FROM ack_hours;
        DROP TABLE ack_hours;
        ALTER TABLE ack_hours_new RENAME TO ack_hours;
        CREATE TABLE ack_totals_new (
            outcome TEXT NOT NULL,
            app TEXT NOT NULL DEFAULT 'default',
            count INTEGER NOT NULL,
            delay_sum_ms INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (outcome, app)
        ) WITHOUT ROWID;
        INSERT INTO ack_totals_new (outcome, app, count, delay_sum_ms) SELECT outcome, 'default', count, delay_sum_ms
            FROM ack_totals;
        DROP TABLE ack_totals;
        ALTER TABLE ack_totals_new RENAME TO ack_totals;
        CREATE TABLE ack_delay_totals_new (
            bucket INTEGER NOT NULL,
            app TEXT NOT NULL DEFAULT 'default',
            count INTEGER NOT NULL,
            PRIMARY KEY (bucket, app)
        ) WITHOUT ROWID;
        INSERT INTO ack_delay_totals_new (bucket, app, count) SELECT bucket, 'default', count FROM ack_delay_totals;
        DROP TABLE ack_delay_totals;
        ALTER TABLE ack_delay_totals_new RENAME TO ack_delay_totals;

        CREATE TABLE sweep_run_kinds_new (
            started_at INTEGER NOT NULL,
            run_id INTEGER NOT NULL,
            push_kind TEXT NOT NULL,
            app TEXT NOT NULL DEFAULT 'default',
            active INTEGER NOT NULL,
            sent INTEGER NOT NULL,
            skipped INTEGER NOT NULL,
            failed INTEGER NOT NULL,
            removed INTEGER NOT NULL,
            held INTEGER NOT NULL,
            PRIMARY KEY (started_at, run_id, push_kind, app)
        ) WITHOUT ROWID;
        INSERT INTO sweep_run_kinds_new (started_at, run_id, push_kind, app, active, sent, skipped, failed, removed, held)
            SELECT started_at, run_id, push_kind, 'default', active, sent, skipped, failed, removed, held FROM sweep_run_kinds;
        DROP TABLE sweep_run_kinds;
        ALTER TABLE sweep_run_kinds_new RENAME TO sweep_run_kinds;
        CREATE INDEX sweep_run_kinds_of_further_apps ON sweep_run_kinds(started_at) WHERE app <> 'default';
        CREATE TABLE sweep_kind_totals_new (
            push_kind TEXT NOT NULL,
            app TEXT NOT NULL DEFAULT 'default',
            sent INTEGER NOT NULL,
            failed INTEGER NOT NULL,
            removed INTEGER NOT NULL,
            PRIMARY KEY (push_kind, app)
        ) WITHOUT ROWID;
        INSERT INTO sweep_kind_totals_new (push_kind, app, sent, failed, removed)
            SELECT push_kind, 'default', sent, failed, removed FROM sweep_kind_totals;
        DROP TABLE sweep_kind_totals;
        ALTER TABLE sweep_kind_totals_new RENAME TO sweep_kind_totals;
        """
}
