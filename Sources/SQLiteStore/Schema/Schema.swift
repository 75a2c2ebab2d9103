import LiveActivityStore
import SQLiteClient

/// The database layout, versioned by `PRAGMA user_version` and migrated forward on open
/// (SPEC section 4). Each step runs in its own transaction; a step is never edited once shipped.
enum Schema {
    /// Migration `n` takes a database from version `n` to `n + 1`.
    static let migrations: [String] = [
        // 0 → 1: the registration table as the original DynamoDB item had it, and sweep bookkeeping.
        """
        CREATE TABLE registrations (
            push_token TEXT PRIMARY KEY NOT NULL,
            activity_type TEXT NOT NULL,
            environment TEXT NOT NULL,
            registered_at INTEGER NOT NULL,
            expires_at INTEGER NOT NULL,
            next_push_at INTEGER NOT NULL,
            last_push_at INTEGER,
            wakeup_count INTEGER NOT NULL DEFAULT 0,
            consecutive_failures INTEGER NOT NULL DEFAULT 0,
            last_error TEXT
        ) WITHOUT ROWID;
        CREATE INDEX registrations_by_next_push ON registrations(next_push_at);
        CREATE INDEX registrations_by_registered ON registrations(registered_at);
        CREATE TABLE sweep_runs (
            id INTEGER PRIMARY KEY,
            started_at INTEGER NOT NULL,
            duration_ms INTEGER NOT NULL,
            active INTEGER NOT NULL,
            sent INTEGER NOT NULL,
            skipped INTEGER NOT NULL,
            expired INTEGER NOT NULL,
            removed INTEGER NOT NULL,
            failed INTEGER NOT NULL,
            outcome TEXT NOT NULL
        );
        CREATE INDEX sweep_runs_by_start ON sweep_runs(started_at);
        CREATE TABLE provider_tokens (
            cache_key TEXT PRIMARY KEY NOT NULL,
            token TEXT NOT NULL,
            issued_at INTEGER NOT NULL
        );
        """,
        // 1 → 2: keep the row count in a counter maintained by triggers, so the registration cap
        // and health are O(1) instead of a scan of the whole table on every request.
        """
        CREATE TABLE registration_count (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            n INTEGER NOT NULL
        );
        INSERT INTO registration_count (id, n) SELECT 1, count(*) FROM registrations;
        CREATE TRIGGER registrations_counted_insert AFTER INSERT ON registrations
            BEGIN UPDATE registration_count SET n = n + 1 WHERE id = 1; END;
        CREATE TRIGGER registrations_counted_delete AFTER DELETE ON registrations
            BEGIN UPDATE registration_count SET n = n - 1 WHERE id = 1; END;
        CREATE TABLE sweep_reasons (
            run_id INTEGER NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('failed', 'removed')),
            reason TEXT NOT NULL,
            count INTEGER NOT NULL,
            PRIMARY KEY (run_id, kind, reason)
        ) WITHOUT ROWID;
        """,
        // 2 → 3: `stats` without a scan of the table (it read all of it twice: ~1.3 s at a
        // million rows). Counts per type and environment kept by triggers, which a push never
        // fires (a push changes neither), so the sweep pays nothing for them; the pushed
        // registrations indexed by wakeups for the top list and the wakeup total: a new
        // registration has 0 wakeups and stays out of that partial index, so registering pays
        // nothing for it. The groups' sum replaces the single counter of step 1 → 2, so an insert
        // still runs one trigger, not two.
        """
        CREATE TABLE registration_groups (
            activity_type TEXT NOT NULL,
            environment TEXT NOT NULL,
            n INTEGER NOT NULL,
            PRIMARY KEY (activity_type, environment)
        ) WITHOUT ROWID;
        INSERT INTO registration_groups (activity_type, environment, n)
            SELECT activity_type, environment, count(*) FROM registrations GROUP BY 1, 2;
        CREATE TRIGGER registrations_grouped_insert AFTER INSERT ON registrations BEGIN
            INSERT INTO registration_groups (activity_type, environment, n)
                VALUES (new.activity_type, new.environment, 1)
                ON CONFLICT (activity_type, environment) DO UPDATE SET n = n + 1;
        END;
        CREATE TRIGGER registrations_grouped_delete AFTER DELETE ON registrations BEGIN
            UPDATE registration_groups SET n = n - 1
                WHERE activity_type = old.activity_type AND environment = old.environment;
        END;
        CREATE TRIGGER registrations_grouped_update AFTER UPDATE OF activity_type, environment ON registrations
            WHEN old.activity_type IS NOT new.activity_type OR old.environment IS NOT new.environment
        BEGIN
            UPDATE registration_groups SET n = n - 1
                WHERE activity_type = old.activity_type AND environment = old.environment;
            INSERT INTO registration_groups (activity_type, environment, n)
                VALUES (new.activity_type, new.environment, 1)
                ON CONFLICT (activity_type, environment) DO UPDATE SET n = n + 1;
        END;
        CREATE INDEX registrations_by_wakeups ON registrations(wakeup_count) WHERE wakeup_count > 0;
        DROP TRIGGER registrations_counted_insert;
        DROP TRIGGER registrations_counted_delete;
        DROP TABLE registration_count;
        """,
        // Later steps, each a constant named by the version it makes, in Schema+Version<n>.swift.
        toVersion4,
        toVersion5,
        toVersion6,
        toVersion7,
        toVersion8,
        toVersion9,
        toVersion10,
        toVersion11,
        toVersion12,
        toVersion13,
        toVersion14,
        toVersion15,
        toVersion16,
        toVersion17,
        toVersion18,
        toVersion19,
    ]

    /// The number of stored registrations: the sum of the trigger-kept counters of the wake
    /// targets (at most one row per type and environment), so the cap and health never scan the
    /// table. Each counter held to 2^50 as it is read (values read back are input): a planted one
    /// is a full table, never an overflow of the sum.
    static let registrationCountSQL =
        "SELECT coalesce(sum(min(max(n, 0), 1125899906842624)), 0) FROM target_groups WHERE push_kind = 'wake'"

    /// The version this build writes.
    static var currentVersion: Int64 { Int64(migrations.count) }

    /// Brings `connection` up to `currentVersion`; refuses a database from a newer build.
    static func migrate(_ connection: SQLiteConnection, upTo target: Int64 = currentVersion) throws {
        var version = try connection.userVersion
        if version > currentVersion { throw SchemaTooNewError(found: version, supported: currentVersion) }
        while version < target {
            let step = migrations[Int(version)]
            try connection.transaction {
                // Re-read inside the write lock: another process may have migrated meanwhile.
                guard try connection.userVersion == version else { return }
                try connection.execute(step)
                try connection.execute("PRAGMA user_version = \(version + 1)")
            }
            version = try connection.userVersion
        }
    }
}
