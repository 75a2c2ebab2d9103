/// The schema step to version 8 (issue 16), appended to `Schema.migrations` after version 7's.
extension Schema {
    /// 7 → 8: did the phone wake? (SPEC 4)
    /// - `registrations.requested_interval`: the seconds the app asked for, NULL for none. The
    ///   bounds are applied where it is used (`IntervalPolicy`), so an operator who changes them
    ///   changes every registration at the next sweep.
    /// - `registrations.attempts`: the last 20 final answers to its pushes, newest first, as the
    ///   bytes of `AttemptRing`: on the row the sweep rewrites for each answer anyway (no page
    ///   more per push, where a table keyed by token cost one), and gone with the row.
    /// - `delivery_hours`: per hour, type and environment, the pushes answered 200, the
    ///   registrations they reached, the acks matched and their delays (sum and a fixed
    ///   histogram, `AckDelayBuckets`), apart from the registrations so that deleting or expiring
    ///   one never rewrites a past hour; kept 7 days (pruned with the run history).
    /// - `ack_hours` and `ack_totals`: acks by outcome per hour (7 days) and as lifetime totals
    ///   that never go down; `ack_delay_totals`: the lifetime histogram `/wakeup/metrics` shows.
    static let toVersion8 = """
        ALTER TABLE registrations ADD COLUMN requested_interval INTEGER;
        ALTER TABLE registrations ADD COLUMN attempts BLOB;
        CREATE TABLE delivery_hours (
            hour INTEGER NOT NULL,
            activity_type TEXT NOT NULL,
            environment TEXT NOT NULL,
            registrations INTEGER NOT NULL DEFAULT 0,
            delivered INTEGER NOT NULL DEFAULT 0,
            acked INTEGER NOT NULL DEFAULT 0,
            delay_sum_ms INTEGER NOT NULL DEFAULT 0,
            d0 INTEGER NOT NULL DEFAULT 0, d1 INTEGER NOT NULL DEFAULT 0, d2 INTEGER NOT NULL DEFAULT 0,
            d3 INTEGER NOT NULL DEFAULT 0, d4 INTEGER NOT NULL DEFAULT 0, d5 INTEGER NOT NULL DEFAULT 0,
            d6 INTEGER NOT NULL DEFAULT 0, d7 INTEGER NOT NULL DEFAULT 0, d8 INTEGER NOT NULL DEFAULT 0,
            d9 INTEGER NOT NULL DEFAULT 0, d10 INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (hour, activity_type, environment)
        ) WITHOUT ROWID;
        CREATE TABLE ack_hours (
            hour INTEGER NOT NULL,
            outcome TEXT NOT NULL,
            count INTEGER NOT NULL,
            PRIMARY KEY (hour, outcome)
        ) WITHOUT ROWID;
        CREATE TABLE ack_totals (
            outcome TEXT PRIMARY KEY NOT NULL,
            count INTEGER NOT NULL,
            delay_sum_ms INTEGER NOT NULL DEFAULT 0
        ) WITHOUT ROWID;
        CREATE TABLE ack_delay_totals (
            bucket INTEGER PRIMARY KEY NOT NULL,
            count INTEGER NOT NULL
        );
        """
}
