import LiveActivityDomain
import LiveActivityStore
import PostgresClient
import StoreSQL

/// The responder's statements (SPEC 3) on PostgreSQL: each over a whole group-commit batch in one
/// statement (arrays unnested), so a batch costs a few round trips whatever its size.
extension PostgresStoreConnection: RegistrationStatements {
    /// The rows locked (`FOR UPDATE`, in key order) until the transaction ends: a sweep's write
    /// of one of them waits, and the writes decided from them find them as they were read.
    func storedTargets(_ keys: [RegistrationKey]) throws -> [StoredTargets?] {
        guard !keys.isEmpty else { return [] }
        return try storeFaults {
            let sql: PostgresSQL = """
                SELECT t.registration_token, t.push_kind, t.push_token, t.environment, t.activity_type,
                    t.last_push_at IS NOT NULL, t.app, t.push_count
                FROM push_targets t JOIN \(.unnest(Self.columns(keys))) AS u(token, app)
                    ON t.registration_token = u.token AND t.app = u.app
                ORDER BY t.registration_token, t.push_kind, t.app FOR UPDATE OF t
                """
            let rows = try statement(sql.text).rows(
                sql.binds,
                refusing: { (row) throws(StoredValueError) in
                    (
                        registration: RegistrationKey(
                            app: AppName(trusted: row.text(6) ?? ""), token: PushToken(trusted: row.text(0) ?? "")),
                        environment: try StoredValue.environment(row.text(3)),
                        type: try StoredValue.activityType(row.text(4)), kind: try StoredValue.kind(row.text(1)),
                        target: StoredTargets.Stored(
                            token: try StoredValue.token(row.text(2)), proven: row.bool(5), wakeups: row.int(7))
                    )
                })
            var stored: [RegistrationKey: StoredTargets] = [:]
            for row in rows {
                // The facts of the first row read, as on SQLite: every target carries its registration's.
                stored[
                    row.registration,
                    default: StoredTargets(
                        environment: row.environment, activityType: row.type, targets: [:], app: row.registration.app)
                ]
                .targets[row.kind] = row.target
            }
            return keys.map { stored[$0] }
        }
    }

    /// Deletions, refreshes and insertions each one statement over the batch, all in one round
    /// trip. Applied in that order, which is the order given: a registration's writes delete or
    /// refresh what is stored, then store what is new (`StoreWrite.refreshing`); a batch that
    /// writes one target twice otherwise is cut where it does (`TargetWriteRun`).
    func write(_ targets: [TargetWrite]) throws {
        guard !targets.isEmpty else { return }
        try storeFaults {
            _ = try connection.pipeline { pipeline throws(PostgresError) in
                for run in TargetWriteRun.cut(targets) {
                    if !run.deletes.isEmpty { try add(Self.deleting(run.deletes), to: pipeline) }
                    if !run.refreshes.isEmpty { try add(Self.refreshing(run.refreshes), to: pipeline) }
                    if !run.inserts.isEmpty { try add(Self.inserting(run.inserts), to: pipeline) }
                }
            }
        }
    }

    /// Queues `sql` on `pipeline`, its statement prepared once and found again by its text.
    private func add(_ sql: PostgresSQL, to pipeline: PostgresPipeline) throws(PostgresError) {
        pipeline.run(try statement(sql.text), sql.binds)
    }

    private static func deleting(_ keys: [TargetKey]) -> PostgresSQL {
        """
        DELETE FROM push_targets t USING \(.unnest(columns(deleting: keys))) AS u(token, kind, app)
        WHERE t.registration_token = u.token AND t.push_kind = u.kind AND t.app = u.app
        """
    }

    /// A refresh takes the target out of any sweep's lease: that sweep's write is skipped.
    private static func refreshing(_ rows: [TargetWriteRun.Refresh]) -> PostgresSQL {
        """
        UPDATE push_targets t SET activity_type = u.activity_type, environment = u.environment, registered_at = u.at,
            expires_at = u.expires, next_push_at = u.at, consecutive_failures = 0, last_error = NULL,
            requested_interval = u.interval, last_push_at = CASE WHEN u.keeps THEN t.last_push_at END,
            lease_id = NULL, lease_until = NULL, activities = u.activities, background_refresh = u.refresh,
            low_power = u.low_power, unchanged_acks = u.unchanged, waiting_changed = NULL
        FROM \(.unnest(columns(refreshing: rows)))
            AS u(token, kind, activity_type, environment, at, expires, interval, keeps, app, activities, refresh,
                low_power, unchanged)
        WHERE t.registration_token = u.token AND t.push_kind = u.kind AND t.app = u.app
        """
    }

    private static func inserting(_ targets: [NewTarget]) -> PostgresSQL {
        """
        INSERT INTO push_targets (registration_token, push_kind, push_token, activity_type, environment, registered_at,
            expires_at, requested_interval, next_push_at, app, activities, background_refresh, low_power,
            unchanged_acks)
        SELECT token, kind, target, activity_type, environment, at, expires, interval, at, app, activities, refresh,
            low_power, unchanged
        FROM \(.unnest(columns(inserting: targets)))
            AS u(token, kind, target, activity_type, environment, at, expires, interval, app, activities, refresh,
                low_power, unchanged)
        """
    }

    private static func columns(deleting keys: [TargetKey]) -> [UnnestColumn] {
        [.text(keys.map(\.registration.hex)), .text(keys.map(\.kind.name)), .text(keys.map(\.app.rawValue))]
    }

    /// Registrations as two columns, tokens and apps, for `unnest(<tokens>::text[], <apps>::text[])`.
    static func columns(_ keys: [RegistrationKey]) -> [UnnestColumn] {
        [.text(keys.map(\.token.hex)), .text(keys.map(\.app.rawValue))]
    }

    private static func columns(refreshing rows: [TargetWriteRun.Refresh]) -> [UnnestColumn] {
        [
            .text(rows.map(\.key.registration.hex)), .text(rows.map(\.key.kind.name)),
            .text(rows.map(\.facts.activityType.rawValue)), .text(rows.map(\.facts.environment.rawValue)),
            .integers(rows.map(\.facts.registeredAt)), .integers(rows.map(\.facts.expiresAt)),
            .integers(rows.map { $0.requestedInterval.map(Int64.init) }), .bools(rows.map(\.keepsProof)),
            .text(rows.map(\.key.app.rawValue)),
        ] + Self.columns(cadence: rows.map(\.cadence))
    }

    /// The four `CadenceColumns`, one entry per target.
    private static func columns(cadence states: [CadenceState]) -> [UnnestColumn] {
        let stored = states.map(\.storedValues)
        return [
            .integers(stored.map(\.activities)), .text(stored.map(\.backgroundRefresh)),
            .integers(stored.map(\.lowPower)), .integers(stored.map { Optional($0.unchangedAcks) }),
        ]
    }

    private static func columns(inserting targets: [NewTarget]) -> [UnnestColumn] {
        [
            .text(targets.map(\.key.registration.hex)), .text(targets.map(\.key.kind.name)),
            .text(targets.map(\.token.hex)), .text(targets.map(\.facts.activityType.rawValue)),
            .text(targets.map(\.facts.environment.rawValue)), .integers(targets.map(\.facts.registeredAt)),
            .integers(targets.map(\.facts.expiresAt)), .integers(targets.map { $0.requestedInterval.map(Int64.init) }),
            .text(targets.map(\.key.app.rawValue)),
        ] + Self.columns(cadence: targets.map(\.cadence))
    }

    /// The registrations are the wake targets.
    private static let counts = PostgresShape<Void>(
        "registration: counts",
        """
        SELECT app, environment, sum(least(greatest(n, 0), 1125899906842624))::bigint,
            sum(least(greatest(unproven, 0), 1125899906842624))::bigint
        FROM target_groups WHERE \(raw: PushKind.wake.sqlIs()) GROUP BY app, environment
        """)

    func registrationCounts() throws -> RegistrationCounts {
        try storeFaults {
            let groups = try statement(Self.counts).rows { ($0.text(0), $0.text(1), $0.int(2), $0.int(3)) }
            return RegistrationCounts(groups)
        }
    }

    /// From `push_targets_held_junk` (schema step 7), whose condition this repeats; rows another
    /// host's writer is evicting (locked) are skipped, not waited for.
    private static let heldJunk = PostgresShape<(app: AppName, environment: APNsEnvironment, limit: Int)>(
        "registration: held junk",
        """
        SELECT registration_token FROM push_targets
        WHERE app = \(bind: { .text($0.app.rawValue) }) AND environment = \(bind: { .text($0.environment.rawValue) }) \
        AND \(raw: PushKind.wake.sqlIs()) AND guard_holds > 0 AND last_push_at IS NULL
        ORDER BY registered_at, registration_token LIMIT \(bind: { .integer(Int64($0.limit)) }) FOR UPDATE SKIP LOCKED
        """)

    func heldJunk(of app: AppName, in environment: APNsEnvironment, limit: Int) throws -> [RegistrationKey] {
        try storeFaults {
            try rows(Self.heldJunk, (app, environment, limit)) { row in
                // A token this build cannot read is skipped: not evicted, and no fault for a new device.
                try? StoredValue.token(row.text(0), column: "registration_token")
            }.compactMap { $0.map { RegistrationKey(app: app, token: $0) } }
        }
    }

    /// Every target of each registration.
    func delete(_ keys: [RegistrationKey]) throws -> [[CountedTarget]] {
        guard !keys.isEmpty else { return [] }
        return try storeFaults {
            let deleted = try rows(
                """
                DELETE FROM push_targets t USING \(.unnest(Self.columns(keys))) AS u(token, app)
                WHERE t.registration_token = u.token AND t.app = u.app
                RETURNING t.registration_token, t.push_kind, t.activity_type, t.environment, t.last_push_at IS NOT NULL, t.app,
                    t.push_count
                """
            ) { row in
                (
                    RegistrationKey(app: AppName(trusted: row.text(5) ?? ""), token: PushToken(trusted: row.text(0) ?? "")),
                    Self.counted(row, from: 1)
                )
            }
            var byKey: [RegistrationKey: [CountedTarget]] = [:]
            for case (let key, let target?) in deleted { byKey[key, default: []].append(target) }
            return keys.map { byKey[$0] ?? [] }
        }
    }

    /// A deleted target as the counters count it (`push_kind, activity_type, environment, proven,
    /// app, push_count` from column `first`); nil for values this build does not know (their
    /// group's counters stay).
    static func counted(_ row: PostgresRow, from first: Int32) -> CountedTarget? {
        guard let kind = row.text(first).flatMap(PushKind.init(name:)),
            let type = row.text(first + 1).flatMap(ActivityType.init(rawValue:)),
            let environment = row.text(first + 2).flatMap(APNsEnvironment.init(name:)),
            let app = row.text(first + 4).flatMap(AppName.init)
        else { return nil }
        return CountedTarget(
            kind: kind, activityType: type, environment: environment, proven: row.bool(first + 3), app: app,
            wakeups: row.int(first + 5))
    }

    /// One statement for every group of the batch, in the deltas' order (`TargetCounting` sorts
    /// them, so hosts lock the counters' rows in the same order).
    func adjust(_ deltas: [GroupDelta]) throws {
        guard !deltas.isEmpty else { return }
        try storeFaults {
            let columns: [UnnestColumn] = [
                .text(deltas.map(\.group.kind.name)), .text(deltas.map(\.group.environment.rawValue)),
                .text(deltas.map(\.group.activityType.rawValue)), .integers(deltas.map(\.targets)),
                .integers(deltas.map(\.unproven)), .text(deltas.map(\.group.app.rawValue)), .integers(deltas.map(\.wakeups)),
            ]
            try run(
                """
                INSERT INTO target_groups AS g (push_kind, environment, activity_type, n, unproven, app, wakeups)
                SELECT * FROM \(.unnest(columns))
                ON CONFLICT (push_kind, environment, activity_type, app) DO UPDATE SET
                    n = g.n + excluded.n, unproven = g.unproven + excluded.unproven, wakeups = g.wakeups + excluded.wakeups
                """)
        }
    }

    /// The wake targets locked (`FOR UPDATE`) until the transaction ends: a sweep's write of the
    /// same row waits, and an ack never judges attempts a commit is about to change. The
    /// registration's token is read last, after `AckColumns.subject`'s columns.
    func ackSubjects(_ keys: [RegistrationKey]) throws -> [AckSubject?] {
        guard !keys.isEmpty else { return [] }
        let wanted = Set(keys)
        return try storeFaults {
            let sql: PostgresSQL = """
                SELECT t.activity_type, t.environment, t.requested_interval, t.next_push_at, \(raw: joinedAttempts(alias: "t")),
                    t.waiting_ack_at, t.last_push_at, t.registered_at, \(raw: TargetColumns.aliased(CadenceColumns.list, "t")),
                    t.registration_token, t.app
                FROM push_targets t JOIN \(.unnest(Self.columns(keys))) AS u(token, app)
                    ON t.registration_token = u.token AND t.app = u.app
                WHERE \(raw: PushKind.wake.sqlIs(alias: "t"))
                ORDER BY t.registration_token, t.app FOR UPDATE OF t
                """
            let rows = try statement(sql.text).rows(
                sql.binds,
                refusing: { (row) throws(StoredValueError) -> (RegistrationKey, AckSubject)? in
                    let key = RegistrationKey(
                        app: AppName(trusted: row.text(13) ?? ""), token: PushToken(trusted: row.text(12) ?? ""))
                    guard wanted.contains(key) else { return nil }
                    return (key, try AckSubject(stored: row, token: key.token))
                })
            let byKey = Dictionary(rows.compactMap { $0 }, uniquingKeysWith: { first, _ in first })
            return keys.map { byKey[$0] }
        }
    }
}
