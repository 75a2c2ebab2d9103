/// Schema step 4 → 5, appended to `Schema.migrations` after step 4.
extension Schema {
    /// 4 → 5: lifetime counters that never go down (SPEC 7). The run history is pruned after 30
    /// days, so sums over it fell; these totals are seeded from the history kept so far and
    /// grow with every run recorded, by triggers in the same transaction as the run's insert.
    static let toVersion5 = """
        CREATE TABLE sweep_totals (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            runs INTEGER NOT NULL,
            sent INTEGER NOT NULL,
            failed INTEGER NOT NULL,
            removed INTEGER NOT NULL,
            expired INTEGER NOT NULL
        );
        INSERT INTO sweep_totals (id, runs, sent, failed, removed, expired)
            SELECT 1, count(*), coalesce(sum(sent), 0), coalesce(sum(failed), 0), coalesce(sum(removed), 0),
                   coalesce(sum(expired), 0)
            FROM sweep_runs;
        CREATE TRIGGER sweep_runs_totalled AFTER INSERT ON sweep_runs BEGIN
            UPDATE sweep_totals SET runs = runs + 1, sent = sent + new.sent, failed = failed + new.failed,
                removed = removed + new.removed, expired = expired + new.expired
            WHERE id = 1;
        END;
        CREATE TABLE sweep_reason_totals (
            kind TEXT NOT NULL,
            reason TEXT NOT NULL,
            count INTEGER NOT NULL,
            PRIMARY KEY (kind, reason)
        ) WITHOUT ROWID;
        INSERT INTO sweep_reason_totals (kind, reason, count)
            SELECT kind, reason, sum(count) FROM sweep_reasons GROUP BY kind, reason;
        CREATE TRIGGER sweep_reasons_totalled AFTER INSERT ON sweep_reasons BEGIN
            INSERT INTO sweep_reason_totals (kind, reason, count) VALUES (new.kind, new.reason, new.count)
                ON CONFLICT (kind, reason) DO UPDATE SET count = count + excluded.count;
        END;
        """
}
