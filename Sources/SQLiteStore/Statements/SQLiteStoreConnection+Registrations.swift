import LiveActivityDomain
import LiveActivityStore
import SQLiteClient
import StoreSQL

/// The responder's statements (SPEC 3) on SQLite: one prepared statement run per write, inside
/// the writer's `BEGIN IMMEDIATE` transaction (SQLite has no round trips to save). Each is a
/// `StatementShape`: its text built once, its binds read from each write.
extension SQLiteStoreConnection: RegistrationStatements {
    /// The registration's targets (its primary key's prefix); SQLite's write lock, taken at
    /// BEGIN IMMEDIATE, already holds the sweep's writes back.
    private static let stored = SQLiteShape<RegistrationKey>(
        "registration: stored targets",
        """
        SELECT push_kind, push_token, environment, activity_type, last_push_at IS NOT NULL, push_count FROM push_targets
        WHERE registration_token = \(bind: { .text($0.token.hex) }) AND app = \(bind: { .text($0.app.rawValue) })
        """)
    private static let insert = SQLiteShape<NewTarget>(
        "registration: insert target",
        """
        INSERT INTO push_targets (registration_token, push_kind, push_token, activity_type, environment, registered_at,
            expires_at, requested_interval, next_push_at, app, \(raw: CadenceColumns.list))
        VALUES (\(bind: { .text($0.key.registration.hex) }), \(bind: { .text($0.key.kind.name) }), \
        \(bind: { .text($0.token.hex) }), \(bind: { .text($0.facts.activityType.rawValue) }), \
        \(bind: { .text($0.facts.environment.rawValue) }), \(bind: { .integer($0.facts.registeredAt) }), \
        \(bind: { .integer($0.facts.expiresAt) }), \(bind: { interval($0.requestedInterval) }), \
        \(bind: { .integer($0.facts.registeredAt) }), \(bind: { .text($0.key.app.rawValue) }), \
        \(CadenceState.sqlValues { $0.cadence }))
        """)
    /// A refresh's write (`TargetWrite.refresh`).
    private typealias Refresh = (
        key: TargetKey, facts: RegistrationFacts, requested: Int?, keepsProof: Bool, cadence: CadenceState
    )
    /// The decision to keep the target's 200s is the caller's (`keepsProof`); the statement applies it.
    private static let refresh = SQLiteShape<Refresh>(
        "registration: refresh target",
        """
        UPDATE push_targets SET activity_type = \(bind: { .text($0.facts.activityType.rawValue) }), \
        environment = \(bind: { .text($0.facts.environment.rawValue) }), \
        registered_at = \(bind: { .integer($0.facts.registeredAt) }), expires_at = \(bind: { .integer($0.facts.expiresAt) }),
            next_push_at = \(bind: { .integer($0.facts.registeredAt) }), consecutive_failures = 0, last_error = NULL, \
        requested_interval = \(bind: { interval($0.requested) }),
            last_push_at = CASE WHEN \(bind: { .integer($0.keepsProof ? 1 : 0) }) THEN last_push_at END,
            \(CadenceState.sqlAssignments { $0.cadence }), waiting_changed = NULL
        WHERE registration_token = \(bind: { .text($0.key.registration.hex) }) AND push_kind = \(bind: { .text($0.key.kind.name) }) \
        AND app = \(bind: { .text($0.key.app.rawValue) })
        """)
    private static let deleteTarget = SQLiteShape<TargetKey>(
        "registration: delete target",
        """
        DELETE FROM push_targets WHERE registration_token = \(bind: { .text($0.registration.hex) }) \
        AND push_kind = \(bind: { .text($0.kind.name) }) AND app = \(bind: { .text($0.app.rawValue) })
        """)
    private static let counts = SQLiteShape<Void>(
        "registration: counts",
        """
        SELECT app, environment, sum(min(max(n, 0), 1125899906842624)), sum(min(max(unproven, 0), 1125899906842624))
        FROM target_groups WHERE push_kind = 'wake' GROUP BY app, environment
        """)
    /// Read from `push_targets_held_junk` (schema step 16), whose condition this repeats.
    private static let heldJunk = SQLiteShape<(app: AppName, environment: APNsEnvironment, limit: Int)>(
        "registration: held junk",
        """
        SELECT registration_token FROM push_targets
        WHERE app = \(bind: { .text($0.app.rawValue) }) AND environment = \(bind: { .text($0.environment.rawValue) }) \
        AND push_kind = 'wake' AND guard_holds > 0 AND last_push_at IS NULL
        ORDER BY registered_at, registration_token LIMIT \(bind: { .integer(Int64($0.limit)) })
        """)
    private static let delete = SQLiteShape<RegistrationKey>(
        "registration: delete",
        """
        DELETE FROM push_targets WHERE registration_token = \(bind: { .text($0.token.hex) }) \
        AND app = \(bind: { .text($0.app.rawValue) })
        RETURNING push_kind, activity_type, environment, last_push_at, app, push_count
        """)
    private static let adjust = SQLiteShape<GroupDelta>(
        "registration: adjust counters",
        """
        INSERT INTO target_groups (push_kind, environment, activity_type, n, unproven, app, wakeups)
        VALUES (\(bind: { .text($0.group.kind.name) }), \(bind: { .text($0.group.environment.rawValue) }), \
        \(bind: { .text($0.group.activityType.rawValue) }), \(bind: { .integer($0.targets) }), \
        \(bind: { .integer($0.unproven) }), \(bind: { .text($0.group.app.rawValue) }), \(bind: { .integer($0.wakeups) }))
        ON CONFLICT (push_kind, environment, activity_type, app) DO UPDATE SET
            n = n + excluded.n, unproven = unproven + excluded.unproven, wakeups = wakeups + excluded.wakeups
        """)

    /// The seconds asked between pushes, NULL for none.
    private static func interval(_ seconds: Int?) -> PreparedStatement.Value { seconds.map { .integer(Int64($0)) } ?? .null }

    func storedTargets(_ keys: [RegistrationKey]) throws -> [StoredTargets?] {
        try storeFaults {
            let statement = try connection.statement(Self.stored)
            return try keys.map { key in
                let rows = try statement.rows(Self.stored.values(key)) { (row) throws(StoredValueError) in
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
                    try connection.run(Self.insert, target)
                case .refresh(let key, let facts, let requested, let keepsProof, let cadence):
                    try connection.run(Self.refresh, (key, facts, requested, keepsProof, cadence))
                case .delete(let key):
                    try connection.run(Self.deleteTarget, key)
                }
            }
        }
    }

    func registrationCounts() throws -> RegistrationCounts {
        try storeFaults {
            let groups = try connection.statement(Self.counts).rows { ($0.text(0), $0.text(1), $0.int(2), $0.int(3)) }
            return RegistrationCounts(groups)
        }
    }

    func heldJunk(of app: AppName, in environment: APNsEnvironment, limit: Int) throws -> [RegistrationKey] {
        try storeFaults {
            // A token this build cannot read is skipped: not evicted, and no fault for a new device.
            try connection.rows(Self.heldJunk, (app, environment, limit)) { row in
                try? StoredValue.token(row.text(0), column: "registration_token")
            }
            .compactMap { $0.map { RegistrationKey(app: app, token: $0) } }
        }
    }

    func delete(_ keys: [RegistrationKey]) throws -> [[CountedTarget]] {
        try storeFaults {
            let statement = try connection.statement(Self.delete)
            return try keys.map { key in
                try statement.rows(Self.delete.values(key)) { Self.counted($0) }.compactMap { $0 }
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
            let statement = try connection.statement(Self.adjust)
            for delta in deltas { try statement.run(Self.adjust.values(delta)) }
        }
    }
}
