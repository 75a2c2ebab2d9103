/// The sweep's side of the database: expiry, due selection, outcome writes and run history.
/// The database is migrated once per run, by whoever opens it first (`Schema.migrate`), not here.
public final class SweepStore {
    public let connection: SQLiteConnection

    public init(connection: SQLiteConnection) {
        self.connection = connection
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

    /// A registration selected for pushing.
    public struct Due: Sendable, Equatable {
        public var token: PushToken
        public var activityType: ActivityType
        public var environment: APNsEnvironment
        public var registeredAt: Int64
        /// Whether APNs ever accepted a push to it (a 200; a re-registration keeps this): what the
        /// mass-deletion guard counts, so tokens a stranger made up cannot trip it (SPEC 5).
        public var proven: Bool
        /// Failures in a row before this push, which set the back-off after another one.
        public var failures: Int
        /// When it was due: with the token, its place in the due order.
        public var nextPushAt: Int64
        /// The seconds the app asked for (SPEC 3 `interval`), nil for none.
        public var requestedInterval: Int?
        /// Its last 200 before this sweep (the hourly figures count registration-hours by it).
        public var lastPushAt: Int64?

        public init(
            token: PushToken, activityType: ActivityType, environment: APNsEnvironment, registeredAt: Int64,
            proven: Bool = false, failures: Int = 0, nextPushAt: Int64 = 0, requestedInterval: Int? = nil,
            lastPushAt: Int64? = nil
        ) {
            self.token = token
            self.activityType = activityType
            self.environment = environment
            self.registeredAt = registeredAt
            self.proven = proven
            self.failures = failures
            self.nextPushAt = nextPushAt
            self.requestedInterval = requestedInterval
            self.lastPushAt = lastPushAt
        }

        /// Its place in the due order.
        public var position: DuePosition { DuePosition(nextPushAt: nextPushAt, token: token) }
    }

    /// Registrations of `environments` whose next push is at or before `cutoff`, in the due index's
    /// order (oldest first, then by token), the `limit` after position `after` (nil: from the
    /// start). The sweep reads them a page at a time (`DueCursor`). Rows of an environment left
    /// out (no longer in APNS_ENVIRONMENTS) are not pushed; they stay until they expire.
    public func duePage(
        atOrBefore cutoff: Int64, environments: [APNsEnvironment] = APNsEnvironment.allCases,
        after position: DuePosition?, limit: Int
    ) throws -> [Due] {
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
        ).rows(values) { row in
            Due(
                token: PushToken(trusted: row.text(0) ?? ""),
                activityType: ActivityType(rawValue: row.text(1) ?? "") ?? .default,
                environment: APNsEnvironment(name: row.text(2) ?? "") ?? .production,
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

    /// Where a page of due rows ends: the next page starts after it.
    public struct DuePosition: Sendable, Equatable {
        public var nextPushAt: Int64
        public var token: PushToken
    }

    /// The SQL that keeps only `environments` (none when all are enabled).
    private static func filter(_ environments: [APNsEnvironment]) -> String {
        if Set(environments) == Set(APNsEnvironment.allCases) { return "" }
        let names = environments.map { "'\($0.rawValue)'" }.joined(separator: ",")
        return " AND environment IN (\(names.isEmpty ? "''" : names))"
    }

    /// One write the sweep owes the database after an answer. Every write that keeps a row is
    /// skipped when the row was registered again after it was selected (`selectedRegisteredAt`):
    /// the new registration is due at once and keeps that.
    public enum Write: Sendable, Equatable {
        /// 200: pushed; failures reset.
        case delivered(PushToken, selectedRegisteredAt: Int64, at: Int64, nextPushAt: Int64)
        /// Kept after a failure: failures + 1, the reason, and when to try again.
        case failed(PushToken, selectedRegisteredAt: Int64, reason: String, nextPushAt: Int64)
        /// Kept, untried or its answer set aside, while a fault of its environment lasts: the
        /// reason and when to try again; its failures are its own and stay as they are.
        case held(PushToken, selectedRegisteredAt: Int64, reason: String, nextPushAt: Int64)
        /// Deleted, unless registered again after `registeredAtOrBefore`.
        case delete(PushToken, registeredAtOrBefore: Int64)
        /// 410: deleted unless registered again after APNs's timestamp; a row kept that way is
        /// pushed again one interval later, not every minute, with the reason recorded.
        case unregistered(PushToken, registeredAtOrBefore: Int64, selectedRegisteredAt: Int64, reason: String, nextPushAt: Int64)

        /// The registration the write is about.
        public var token: PushToken {
            switch self {
            case .delivered(let token, _, _, _), .failed(let token, _, _, _), .held(let token, _, _, _),
                .delete(let token, _), .unregistered(let token, _, _, _, _):
                token
            }
        }
    }

    /// Applies `writes` in one transaction, then records `answered` (the attempts and the hourly
    /// figures, SweepStore+Attempts) in it; returns how many rows were deleted.
    @discardableResult
    public func apply(_ writes: [Write], answered: [AnsweredPush] = []) throws -> Int {
        guard !writes.isEmpty || !answered.isEmpty else { return 0 }
        // In key order, so consecutive writes of a batch share B-tree pages.
        let ordered = writes.sorted { $0.token.hex < $1.token.hex }
        return try connection.transaction {
            var deleted = 0
            for write in ordered {
                switch write {
                case .delivered(let token, let registeredAt, let at, let next):
                    try connection.statement(
                        """
                        UPDATE registrations SET last_push_at = ?2, next_push_at = ?3,
                            wakeup_count = wakeup_count + 1, consecutive_failures = 0, last_error = NULL
                        WHERE push_token = ?1 AND registered_at = ?4
                        """
                    ).run([.text(token.hex), .integer(at), .integer(next), .integer(registeredAt)])
                case .failed(let token, let registeredAt, let reason, let next):
                    try keep(token, registeredAt: registeredAt, reason: reason, nextPushAt: next, failed: true)
                case .held(let token, let registeredAt, let reason, let next):
                    try keep(token, registeredAt: registeredAt, reason: reason, nextPushAt: next, failed: false)
                case .delete(let token, let cutoff):
                    deleted += try delete(token, registeredAtOrBefore: cutoff)
                case .unregistered(let token, let cutoff, let registeredAt, let reason, let next):
                    if try delete(token, registeredAtOrBefore: cutoff) == 0 {
                        try keep(token, registeredAt: registeredAt, reason: reason, nextPushAt: next, failed: true)
                    } else {
                        deleted += 1
                    }
                }
            }
            try recordAnswered(answered)
            return deleted
        }
    }

    private func delete(_ token: PushToken, registeredAtOrBefore cutoff: Int64) throws -> Int {
        try connection.statement("DELETE FROM registrations WHERE push_token = ? AND registered_at <= ?")
            .run([.text(token.hex), .integer(cutoff)])
        return connection.changes
    }

    /// Keeps a row selected at `registeredAt` with `reason`, due again at `next`; a failure
    /// counts one more in a row.
    private func keep(_ token: PushToken, registeredAt: Int64, reason: String, nextPushAt next: Int64, failed: Bool) throws {
        try connection.statement(
            """
            UPDATE registrations SET consecutive_failures = consecutive_failures + ?5,
                last_error = ?2, next_push_at = ?3
            WHERE push_token = ?1 AND registered_at = ?4
            """
        ).run([
            .text(token.hex), .text(String(reason.prefix(64))), .integer(next), .integer(registeredAt), .integer(failed ? 1 : 0),
        ])
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
