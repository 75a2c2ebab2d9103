import LiveActivityDomain

/// The sweep's side of the database: expiry, due selection, outcome writes and run history.
/// The database is migrated once per run, on the connection the sweep opens first
/// (`migrating: true`); the outcome writer's own connection does not migrate.
public final class SweepStore {
    /// `package`: the store's tests reach it; the sweep speaks only the methods below.
    package let connection: SQLiteConnection

    package init(connection: SQLiteConnection) {
        self.connection = connection
        connection.registerAttemptRingFunction()
    }

    /// Opens the database at `path`; with `migrating`, brings its schema up to date first (the
    /// one migration of a run, on the connection the sweep opens first).
    public convenience init(path: String, options: DatabaseOptions = .init(), migrating: Bool = false) throws {
        let connection = try SQLiteConnection(path: path, options: options)
        if migrating { try Schema.migrate(connection) }
        self.init(connection: connection)
    }

    /// Deletes registrations made at or before `cutoff` (ms); returns how many.
    public func deleteExpired(registeredAtOrBefore cutoff: Int64) throws -> Int {
        try connection.transaction {
            try connection.statement("DELETE FROM registrations WHERE registered_at <= ?").run([.integer(cutoff)])
            return connection.changes
        }
    }

    public func activeCount() throws -> Int {
        Int(try connection.statement(Schema.registrationCountSQL).scalarInt() ?? 0)
    }

    /// Registrations of `environments` whose next push is at or before `cutoff`, in the due index's
    /// order (oldest first, then by token), the `limit` after position `after` (nil: from the
    /// start). The sweep reads them a page at a time (`DueCursor`). Rows of an environment left
    /// out (no longer in APNS_ENVIRONMENTS) are not pushed; they stay until they expire.
    public func duePage(
        atOrBefore cutoff: Int64, environments: [APNsEnvironment] = APNsEnvironment.allCases,
        after position: DuePosition?, limit: Int
    ) throws -> [DueRegistration] {
        let after = position == nil ? "" : " AND (next_push_at, push_token) > (?3, ?4)"
        let values: [PreparedStatement.Value] =
            [.integer(cutoff), .integer(Int64(limit))]
            + (position.map { [.integer($0.nextPushAt), .text($0.token.hex)] } ?? [])
        return try connection.statement(
            """
            SELECT push_token, activity_type, environment, registered_at, last_push_at IS NOT NULL,
                consecutive_failures, next_push_at, requested_interval, last_push_at
            FROM registrations WHERE next_push_at <= ?1\(after)\(Self.filter(environments))
            ORDER BY next_push_at, push_token LIMIT ?2
            """
        ).rows(values) { (row) throws(StoredValueError) in
            DueRegistration(
                token: PushToken(trusted: row.text(0) ?? ""), activityType: try row.activityType(1),
                environment: try row.environment(2),
                registeredAt: row.int(3), proven: row.int(4) != 0, failures: Int(row.int(5)), nextPushAt: row.int(6),
                requestedInterval: row.optionalInt(7).map { Int($0) }, lastPushAt: row.optionalInt(8))
        }
    }

    /// How many registrations of `environments` are due at `cutoff`, per environment (those
    /// with none left out).
    public func dueCounts(
        atOrBefore cutoff: Int64, environments: [APNsEnvironment] = APNsEnvironment.allCases
    ) throws -> [APNsEnvironment: Int] {
        let counts = try connection.statement(
            """
            SELECT environment, count(*) FROM registrations
            WHERE next_push_at <= ?\(Self.filter(environments)) GROUP BY environment
            """
        ).rows([.integer(cutoff)]) { row in (APNsEnvironment(name: row.text(0) ?? ""), Int(row.int(1))) }
        var result: [APNsEnvironment: Int] = [:]
        for case (let environment?, let count) in counts { result[environment, default: 0] += count }
        return result
    }

    /// Holds in one statement every registration of `environment` that a fault stopped before the
    /// sweep wrote anything for it: still due at `cutoff`, registered at or before `sweepStart`
    /// (one registered during the sweep stays due: its first push goes out at the next sweep) and
    /// not answered 200 since then. Each waits its own effective interval from `now` (the app's,
    /// clamped by `policy`, else its type's) with `reason`; its failures stay as they are. Run
    /// after the sweep's own writes; returns how many it held.
    public func holdUnreached(
        in environment: APNsEnvironment, dueAtOrBefore cutoff: Int64, registeredAtOrBefore sweepStart: Int64,
        reason: String, now: Int64, policy: IntervalPolicy
    ) throws -> Int {
        let types = ActivityType.allCases
        let cases = types.indices.map { " WHEN '\(types[$0].rawValue)' THEN ?\($0 + 8)" }.joined()
        let values: [PreparedStatement.Value] =
            [
                .text(String(reason.prefix(64))), .text(environment.rawValue), .integer(cutoff), .integer(sweepStart),
                .integer(Int64(policy.seconds(.default))), .integer(now), .integer(Int64(policy.maximumSeconds)),
            ] + types.map { .integer(Int64(policy.seconds($0))) }
        // IntervalPolicy.effectiveSeconds in SQL: max(type, min(asked, maximum)), else the type's.
        let typeSeconds = "CASE activity_type\(cases) ELSE ?5 END"
        return try connection.transaction {
            try connection.statement(
                """
                UPDATE registrations SET last_error = ?1, next_push_at = ?6 + 1000 * CASE WHEN requested_interval IS NULL
                    THEN \(typeSeconds) ELSE max(\(typeSeconds), min(requested_interval, ?7)) END
                WHERE next_push_at <= ?3 AND environment = ?2 AND registered_at <= ?4
                    AND (last_push_at IS NULL OR last_push_at < ?4)
                """
            ).run(values)
            return connection.changes
        }
    }

    /// The environments in which a push was ever answered 200 in this database (SPEC 5's guard).
    public func environmentsEverDelivered() throws -> Set<APNsEnvironment> {
        let names = try connection.statement("SELECT environment FROM delivered_environments").rows([]) { $0.text(0) ?? "" }
        return Set(names.compactMap(APNsEnvironment.init(name:)))
    }

    /// The SQL that keeps only `environments` (none when all are enabled).
    private static func filter(_ environments: [APNsEnvironment]) -> String {
        if Set(environments) == Set(APNsEnvironment.allCases) { return "" }
        let names = environments.map { "'\($0.rawValue)'" }.joined(separator: ",")
        return " AND environment IN (\(names.isEmpty ? "''" : names))"
    }

    /// Applies `writes` in one transaction, then records `answered` (the attempts and the hourly
    /// figures, SweepStore+Attempts) in it; returns how many rows were deleted.
    @discardableResult
    public func apply(_ writes: [OutcomeWrite], answered: [AnsweredPush] = []) throws -> Int {
        guard !writes.isEmpty || !answered.isEmpty else { return 0 }
        // In key order, so consecutive writes of a batch share B-tree pages.
        let ordered = writes.sorted { $0.token.hex < $1.token.hex }
        // Each answer goes on its row in the UPDATE of its outcome (SweepStore+Attempts).
        var entries: [String: [UInt8]] = [:]
        for push in answered { entries[push.attempt.token.hex] = AttemptRing.entry(push.attempt) }
        var placed = Set<String>()
        return try connection.transaction {
            var deleted = 0
            for write in ordered {
                let hex = write.token.hex
                let entry: PreparedStatement.Value = entries[hex].map { .blob($0) } ?? .null
                switch write {
                case .delivered(let token, let registeredAt, let at, let next):
                    try connection.statement(
                        """
                        UPDATE registrations SET last_push_at = ?2, next_push_at = ?3,
                            wakeup_count = wakeup_count + 1, consecutive_failures = 0, last_error = NULL,
                            attempts = \(SQLiteConnection.prependAttemptFunction)(?5, attempts)
                        WHERE push_token = ?1 AND registered_at = ?4
                        """
                    ).run([.text(token.hex), .integer(at), .integer(next), .integer(registeredAt), entry])
                    if connection.changes > 0 { placed.insert(hex) }
                case .failed(let token, let registeredAt, let reason, let next):
                    if try keep(token, registeredAt: registeredAt, reason: reason, nextPushAt: next, failed: true, entry: entry) {
                        placed.insert(hex)
                    }
                case .held(let token, let registeredAt, let reason, let next):
                    if try keep(token, registeredAt: registeredAt, reason: reason, nextPushAt: next, failed: false, entry: entry)
                    {
                        placed.insert(hex)
                    }
                case .delete(let token, let cutoff):
                    deleted += try delete(token, registeredAtOrBefore: cutoff)
                case .unregistered(let token, let cutoff, let registeredAt, let reason, let next):
                    if try delete(token, registeredAtOrBefore: cutoff) == 0 {
                        if try keep(
                            token, registeredAt: registeredAt, reason: reason, nextPushAt: next, failed: true, entry: entry)
                        {
                            placed.insert(hex)
                        }
                    } else {
                        deleted += 1
                    }
                }
            }
            try recordAnswered(answered, placed: placed)
            return deleted
        }
    }

    private func delete(_ token: PushToken, registeredAtOrBefore cutoff: Int64) throws -> Int {
        try connection.statement("DELETE FROM registrations WHERE push_token = ? AND registered_at <= ?")
            .run([.text(token.hex), .integer(cutoff)])
        return connection.changes
    }

    /// Keeps a row selected at `registeredAt` with `reason`, due again at `next`; a failure
    /// counts one more in a row; `entry` (an `AttemptRing` entry, or NULL) goes first in its
    /// attempts. Whether the row was there to keep.
    private func keep(
        _ token: PushToken, registeredAt: Int64, reason: String, nextPushAt next: Int64, failed: Bool,
        entry: PreparedStatement.Value = .null
    ) throws -> Bool {
        try connection.statement(
            """
            UPDATE registrations SET consecutive_failures = consecutive_failures + ?5,
                last_error = ?2, next_push_at = ?3, attempts = \(SQLiteConnection.prependAttemptFunction)(?6, attempts)
            WHERE push_token = ?1 AND registered_at = ?4
            """
        ).run([
            .text(token.hex), .text(String(reason.prefix(64))), .integer(next), .integer(registeredAt), .integer(failed ? 1 : 0),
            entry,
        ])
        return connection.changes > 0
    }

    /// Keeps the run for `stats` and `/wakeup/metrics`; runs older than 30 days are pruned.
    public func record(_ summary: SweepSummary) throws {
        try connection.transaction {
            try connection.statement(
                """
                INSERT INTO sweep_runs (started_at, duration_ms, active, sent, skipped, expired, removed, failed, outcome)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
            ).run([
                .integer(summary.startedAt), .integer(summary.durationMilliseconds), .integer(Int64(summary.active)),
                .integer(Int64(summary.sent)), .integer(Int64(summary.skipped)), .integer(Int64(summary.expired)),
                .integer(Int64(summary.removed)), .integer(Int64(summary.failed)), .text(summary.outcome),
            ])
            let runID = try connection.statement("SELECT last_insert_rowid()").scalarInt() ?? 0
            for (kind, reasons) in [("failed", summary.failureReasons), ("removed", summary.removalReasons)] {
                for (reason, count) in reasons {
                    try connection.statement("INSERT INTO sweep_reasons (run_id, kind, reason, count) VALUES (?, ?, ?, ?)")
                        .run([.integer(runID), .text(kind), .text(reason), .integer(Int64(count))])
                }
            }
            for fault in summary.faults {
                try connection.statement(
                    "INSERT OR REPLACE INTO sweep_faults (run_id, environment, kind, reason, pushes) VALUES (?, ?, ?, ?, ?)"
                ).run([
                    .integer(runID), .text(fault.environment.rawValue), .text(fault.kind.rawValue), .text(fault.reason),
                    .integer(Int64(fault.pushes)),
                ])
            }
            let monthAgo = summary.startedAt - 30 * 86_400_000
            try connection.statement("DELETE FROM sweep_reasons WHERE run_id IN (SELECT id FROM sweep_runs WHERE started_at < ?)")
                .run([.integer(monthAgo)])
            try connection.statement("DELETE FROM sweep_faults WHERE run_id IN (SELECT id FROM sweep_runs WHERE started_at < ?)")
                .run([.integer(monthAgo)])
            try connection.statement("DELETE FROM sweep_runs WHERE started_at < ?").run([.integer(monthAgo)])
            try pruneDeliveryFigures(now: summary.startedAt)
        }
    }
}
