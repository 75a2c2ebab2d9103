/// The schema step to version 8 (issue 16), appended to `Schema.migrations` after version 7's.
extension Schema {
    /// 7 → 8: did the phone wake? (SPEC 4)
    /// - `registrations.requested_interval`: the seconds the app asked for, NULL for none. The
    ///   bounds are applied where it is used (`IntervalPolicy`), so an operator who changes them
    ///   changes every registration at the next sweep.
    /// - `push_attempts`: a registration's last 20 final answers, keyed by token and a sequence
    ///   number (WITHOUT ROWID: one B-tree insert per attempt, and a device's attempts share a
    ///   page, so the prune after each insert and `history` read one page). Deleted with the
    ///   registration by a trigger, not a foreign key: foreign keys are off per connection by
    ///   default, and an attempt is only written while its registration exists.
    /// - `delivery_hours`: per hour, type and environment, the pushes answered 200, the
    ///   registrations they reached, the acks matched and their delays (sum and a fixed
    ///   histogram, `AckDelayBuckets`), apart from the registrations so that deleting or expiring
    ///   one never rewrites a past hour; kept 7 days (pruned with the run history).
    /// - `ack_hours` and `ack_totals`: acks by outcome per hour (7 days) and as lifetime totals
    ///   that never go down; `ack_delay_totals`: the lifetime histogram `/wakeup/metrics` shows.
    static let version8 = """
        ALTER TABLE registrations ADD COLUMN requested_interval INTEGER;
        CREATE TABLE push_attempts (
            push_token TEXT NOT NULL,
            seq INTEGER NOT NULL,
            sent_at INTEGER NOT NULL,
            answered_at INTEGER NOT NULL,
            status INTEGER,
            reason TEXT,
            apns_id TEXT,
            acked_at INTEGER,
            ack_delay_ms INTEGER,
            PRIMARY KEY (push_token, seq)
        ) WITHOUT ROWID;
        CREATE TRIGGER registrations_attempts_deleted AFTER DELETE ON registrations BEGIN
            DELETE FROM push_attempts WHERE push_token = old.push_token;
        END;
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
