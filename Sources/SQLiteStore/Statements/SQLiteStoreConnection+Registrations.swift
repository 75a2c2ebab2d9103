import LiveActivityDomain
import LiveActivityStore
import SQLiteClient

/// The responder's statements (SPEC 3) on SQLite: one prepared statement run per write, inside
/// the writer's `BEGIN IMMEDIATE` transaction (SQLite has no round trips to save). Their texts
/// are literals (`StaticString`), so each is found by its address, not by hashing its text.
extension SQLiteStoreConnection: RegistrationStatements {
    /// The registration's targets (its primary key's prefix); SQLite's write lock, taken at
    /// BEGIN IMMEDIATE, already holds the sweep's writes back.
    private static let storedSQL: StaticString = """
        SELECT push_kind, push_token, environment, activity_type, last_push_at IS NOT NULL, push_count FROM push_targets
        WHERE registration_token = ? AND app = ?
        """
    private static let insertSQL: StaticString = """
        INSERT INTO push_targets (registration_token, push_kind, push_token, activity_type, environment, registered_at,
            expires_at, requested_interval, next_push_at, app, activities, background_refresh, low_power, unchanged_acks)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?6, ?9, ?10, ?11, ?12, ?13)
        """
    /// The decision to keep the target's 200s is the caller's (`?8`); the statement applies it.
    private static let refreshSQL: StaticString = """
        UPDATE push_targets SET activity_type = ?3, environment = ?4, registered_at = ?5, expires_at = ?6,
            next_push_at = ?5, consecutive_failures = 0, last_error = NULL, requested_interval = ?7,
            last_push_at = CASE WHEN ?8 THEN last_push_at END,
            activities = ?10, background_refresh = ?11, low_power = ?12, unchanged_acks = ?13, waiting_changed = NULL
        WHERE registration_token = ?1 AND push_kind = ?2 AND app = ?9
        """
    private static let deleteTargetSQL: StaticString =
        "DELETE FROM push_targets WHERE registration_token = ? AND push_kind = ? AND app = ?"
    private static let countsSQL: StaticString =
        """
        SELECT app, environment, sum(min(max(n, 0), 1125899906842624)), sum(min(max(unproven, 0), 1125899906842624))
        FROM target_groups WHERE push_kind = 'wake' GROUP BY app, environment
        """
    /// Read from `push_targets_held_junk` (schema step 16), whose condition this repeats.
    private static let heldJunkSQL: StaticString = """
        SELECT registration_token FROM push_targets
        WHERE app = ?1 AND environment = ?2 AND push_kind = 'wake' AND guard_holds > 0 AND last_push_at IS NULL
        ORDER BY registered_at, registration_token LIMIT ?3
        """
    private static let deleteSQL: StaticString = """
        DELETE FROM push_targets WHERE registration_token = ? AND app = ?
        RETURNING push_kind, activity_type, environment, last_push_at, app, push_count
        """
    private static let adjustSQL: StaticString = """
        INSERT INTO target_groups (push_kind, environment, activity_type, n, unproven, app, wakeups)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (push_kind, environment, activity_type, app) DO UPDATE SET
            n = n + excluded.n, unproven = unproven + excluded.unproven, wakeups = wakeups + excluded.wakeups
        """
    private static let ackSubjectSQL: StaticString = """
        SELECT activity_type, environment, requested_interval, next_push_at, attempts, waiting_ack_at, last_push_at,
            registered_at, activities, background_refresh, low_power, unchanged_acks
        FROM push_targets WHERE registration_token = ? AND push_kind = 'wake' AND app = ?
        """
    private static let markAckSQL: StaticString =
        "UPDATE push_targets SET attempts = ?2 WHERE registration_token = ?1 AND push_kind = 'wake' AND app = ?3"
    private static let waitAckSQL: StaticString = """
        UPDATE push_targets SET waiting_ack_at = ?2, waiting_changed = ?4
        WHERE registration_token = ?1 AND push_kind = 'wake' AND app = ?3
        """
    private static let cadenceSQL: StaticString = """
        UPDATE push_targets SET activities = ?2, background_refresh = ?3, low_power = ?4, unchanged_acks = ?5, next_push_at = ?6
        WHERE registration_token = ?1 AND push_kind = 'wake' AND app = ?7
        """
    private static let countAckHourSQL: StaticString = """
        INSERT INTO ack_hours (hour, outcome, app, count) VALUES (?, ?, ?, 1)
        ON CONFLICT (hour, outcome, app) DO UPDATE SET count = count + 1
        """
    private static let countAckTotalSQL: StaticString = """
        INSERT INTO ack_totals (outcome, app, count, delay_sum_ms) VALUES (?, ?, 1, ?)
        ON CONFLICT (outcome, app) DO UPDATE SET count = count + 1, delay_sum_ms = delay_sum_ms + excluded.delay_sum_ms
        """
    private static let countAckDelaySQL: StaticString =
        "INSERT INTO ack_delay_totals (bucket, app, count) VALUES (?, ?, 1) ON CONFLICT (bucket, app) DO UPDATE SET count = count + 1"

    func storedTargets(_ keys: [RegistrationKey]) throws -> [StoredTargets?] {
        try storeFaults {
            let statement = try connection.statement(Self.storedSQL)
            return try keys.map { key in
                let rows = try statement.rows([.text(key.token.hex), .text(key.app.rawValue)]) { (row) throws(StoredValueError) in
                    (
                        environment: try StoredValue.environment(row.text(2)), type: try StoredValue.activityType(row.text(3)),
                        kind: try StoredValue.kind(row.text(0)),
                        target: StoredTargets.Stored(
                            token: try StoredValue.token(row.text(1)), proven: row.int(4) != 0, wakeups: row.int(5))
                    )
                }
                guard let first = rows.first else { return nil }
                return StoredTargets(
                    environment: first.environment, activityType: first.type,
                    targets: Dictionary(rows.map { ($0.kind, $0.target) }, uniquingKeysWith: { first, _ in first }),
                    app: key.app)
            }
        }
    }

    func write(_ targets: [TargetWrite]) throws {
        try storeFaults {
            for write in targets {
                switch write {
                case .insert(let target):
                    try connection.statement(Self.insertSQL).run(
                        [
                            .text(target.key.registration.hex), .text(target.key.kind.name), .text(target.token.hex),
                            .text(target.facts.activityType.rawValue), .text(target.facts.environment.rawValue),
                            .integer(target.facts.registeredAt), .integer(target.facts.expiresAt),
                            target.requestedInterval.map { .integer(Int64($0)) } ?? .null, .text(target.key.app.rawValue),
                        ] + Self.values(target.cadence))
                case .refresh(let key, let facts, let requested, let keepsProof, let cadence):
                    try connection.statement(Self.refreshSQL).run(
                        [
                            .text(key.registration.hex), .text(key.kind.name), .text(facts.activityType.rawValue),
                            .text(facts.environment.rawValue), .integer(facts.registeredAt), .integer(facts.expiresAt),
                            requested.map { .integer(Int64($0)) } ?? .null, .integer(keepsProof ? 1 : 0),
                            .text(key.app.rawValue),
                        ] + Self.values(cadence))
                case .delete(let key):
                    try connection.statement(Self.deleteTargetSQL).run([
                        .text(key.registration.hex), .text(key.kind.name), .text(key.app.rawValue),
                    ])
                }
            }
        }
    }

    /// The four `CadenceColumns`' values, in their order.
    static func values(_ cadence: CadenceState) -> [PreparedStatement.Value] {
        let stored = cadence.storedValues
        return [
            stored.activities.map { .integer($0) } ?? .null, stored.backgroundRefresh.map { .text($0) } ?? .null,
            stored.lowPower.map { .integer($0) } ?? .null, .integer(stored.unchangedAcks),
        ]
    }

    func registrationCounts() throws -> RegistrationCounts {
        try storeFaults {
            let groups = try connection.statement(Self.countsSQL).rows { ($0.text(0), $0.text(1), $0.int(2), $0.int(3)) }
            return RegistrationCounts(groups)
        }
    }

    func heldJunk(of app: AppName, in environment: APNsEnvironment, limit: Int) throws -> [RegistrationKey] {
        try storeFaults {
            // A token this build cannot read is skipped: not evicted, and no fault for a new device.
            try connection.statement(Self.heldJunkSQL).rows(
                [.text(app.rawValue), .text(environment.rawValue), .integer(Int64(limit))]
            ) { row in try? StoredValue.token(row.text(0), column: "registration_token") }
            .compactMap { $0.map { RegistrationKey(app: app, token: $0) } }
        }
    }

    func delete(_ keys: [RegistrationKey]) throws -> [[CountedTarget]] {
        try storeFaults {
            let statement = try connection.statement(Self.deleteSQL)
            return try keys.map { key in
                try statement.rows([.text(key.token.hex), .text(key.app.rawValue)]) { Self.counted($0) }.compactMap { $0 }
            }
        }
    }

    /// A deleted target as the counters count it (`push_kind, activity_type, environment,
    /// last_push_at, app, push_count`: proven when it has one); nil for values this build does not know (their
    /// group's counters stay as they are). The column itself, not `last_push_at IS NOT NULL`:
    /// SQLite 3.40 returns that expression wrong from a DELETE on a WITHOUT ROWID table.
    static func counted(_ row: Row) -> CountedTarget? {
        guard let kind = row.text(0).flatMap(PushKind.init(name:)),
            let type = row.text(1).flatMap(ActivityType.init(rawValue:)),
            let environment = row.text(2).flatMap(APNsEnvironment.init(name:)), let app = row.text(4).flatMap(AppName.init)
        else { return nil }
        return CountedTarget(
            kind: kind, activityType: type, environment: environment, proven: !row.isNull(3), app: app, wakeups: row.int(5))
    }

    func adjust(_ deltas: [GroupDelta]) throws {
        try storeFaults {
            let statement = try connection.statement(Self.adjustSQL)
            for delta in deltas {
                try statement.run([
                    .text(delta.group.kind.name), .text(delta.group.environment.rawValue),
                    .text(delta.group.activityType.rawValue),
                    .integer(delta.targets), .integer(delta.unproven), .text(delta.group.app.rawValue),
                    .integer(delta.wakeups),
                ])
            }
        }
    }

    func ackSubjects(_ keys: [RegistrationKey]) throws -> [AckSubject?] {
        try storeFaults {
            let statement = try connection.statement(Self.ackSubjectSQL)
            return try keys.map { key in
                try statement.firstRow(
                    [.text(key.token.hex), .text(key.app.rawValue)],
                    refusing: { (row) throws(StoredValueError) in try AckSubject(stored: row, token: key.token) })
            }
        }
    }

    func write(_ acks: [AckWrite]) throws {
        try storeFaults {
            for ack in acks {
                switch ack {
                case .mark(let key, let attempts):
                    try connection.statement(Self.markAckSQL)
                        .run([.text(key.token.hex), .blob(AttemptRing.encode(attempts)), .text(key.app.rawValue)])
                case .wait(let key, let at, let changed):
                    try connection.statement(Self.waitAckSQL).run([
                        .text(key.token.hex), .integer(at), .text(key.app.rawValue),
                        changed.map { .integer($0 ? 1 : 0) } ?? .null,
                    ])
                case .cadence(let key, let state, let next):
                    try connection.statement(Self.cadenceSQL).run(
                        [.text(key.token.hex)] + Self.values(state) + [.integer(next), .text(key.app.rawValue)])
                }
            }
        }
    }

    func count(_ acks: [AckCount]) throws {
        try storeFaults {
            for ack in acks {
                let app = PreparedStatement.Value.text(ack.app.rawValue)
                try connection.statement(Self.countAckHourSQL).run([
                    .integer(DeliveryHour.of(ack.at)), .text(ack.outcome.rawValue), app,
                ])
                try connection.statement(Self.countAckTotalSQL).run([
                    .text(ack.outcome.rawValue), app, .integer(ack.match?.delayMilliseconds ?? 0),
                ])
                guard let match = ack.match else { continue }
                let bucket = AckDelayBuckets.index(ofMilliseconds: match.delayMilliseconds)
                // The column of the delay's bucket (d0 ... d10, schema step 7 → 8): a statement per bucket, each prepared once.
                try connection.statement(
                    """
                    INSERT INTO delivery_hours (hour, activity_type, environment, push_kind, acked, delay_sum_ms, d\(bucket), app)
                    VALUES (?, ?, ?, 'wake', 1, ?, 1, ?)
                    ON CONFLICT (hour, push_kind, activity_type, environment, app) DO UPDATE SET
                        acked = acked + 1, delay_sum_ms = delay_sum_ms + excluded.delay_sum_ms, d\(bucket) = d\(bucket) + 1
                    """
                ).run([
                    .integer(DeliveryHour.of(match.answeredAt)), .text(match.activityType.rawValue),
                    .text(match.environment.rawValue), .integer(match.delayMilliseconds), app,
                ])
                try connection.statement(Self.countAckDelaySQL).run([.integer(Int64(bucket)), app])
            }
        }
    }
}
