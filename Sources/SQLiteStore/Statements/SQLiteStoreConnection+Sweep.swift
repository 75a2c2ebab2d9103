import LiveActivityDomain
import LiveActivityStore
import SQLiteClient
import StoreSQL

/// A sweep's statements (SPEC 5) on SQLite. One host runs one sweep at a time (the sweep's
/// lock), so it is no `SharedDatabase` (no lease, no host name to lock): a due target is read,
/// not claimed, and an outcome is written only where its registration is still registered as it
/// was read.
extension SQLiteStoreConnection: SweepStatements {
    /// Registrations are their wake targets; every target carries its registration's time.
    func countExpired(registeredAtOrBefore cutoff: Int64) throws -> Int {
        try storeFaults {
            Int(
                try connection.scalarInt(
                    "SELECT count(*) FROM push_targets WHERE registered_at <= \(bind: cutoff) AND \(raw: PushKind.wake.sqlIs())"
                ) ?? 0)
        }
    }

    /// Every kind's targets, written as the two partial indexes on registered_at divide them, so
    /// each range is read from its index (one index over all kinds would cost the figures a kind
    /// compared per entry).
    func deleteExpired(registeredAtOrBefore cutoff: Int64) throws -> [CountedTarget: Int] {
        try storeFaults {
            let gone = try connection.rows(
                """
                DELETE FROM push_targets
                WHERE (\(raw: PushKind.wake.sqlIs()) AND registered_at <= \(bind: cutoff))
                    OR (\(raw: PushKind.wake.sqlIsNot) AND registered_at <= \(bind: cutoff))
                RETURNING push_kind, activity_type, environment, last_push_at, app, push_count
                """
            ) { Self.counted($0) }
            return CountedTarget.tally(gone.compactMap { $0 })
        }
    }

    func dueCounts(atOrBefore cutoff: Int64, environments: [APNsEnvironment]) throws -> [PushScope: Int] {
        try storeFaults {
            let counts = try connection.rows(
                """
                SELECT environment, push_kind, app, count(*) FROM push_targets
                WHERE next_push_at <= \(bind: cutoff)\(raw: Self.filter(environments)) GROUP BY environment, push_kind, app
                """
            ) { (PushScope(stored: $0), Int($0.int(3))) }
            return PushScope.tally(counts)
        }
    }

    /// Rows in the due index's order; no read transaction is held between pages (the outcome
    /// writer commits meanwhile, and a long snapshot would keep the WAL from checkpointing).
    func claimDue(
        atOrBefore cutoff: Int64, environments: [APNsEnvironment], after position: DuePosition?, limit: Int
    ) throws -> [DueRead] {
        let after: SQLiteSQL = position.map { " AND \(DueOrder.after($0))" } ?? ""
        return try storeFaults {
            try connection.rows(
                """
                SELECT \(raw: TargetColumns.due) FROM push_targets
                WHERE next_push_at <= \(bind: cutoff)\(after)\(raw: Self.filter(environments)) AND \(raw: PushKind.sqlKnown)
                \(DueOrder.orderBy()) LIMIT \(bind: Int64(limit))
                """
            ) { row in
                DueRead(
                    position: DuePosition(stored: row),
                    target: Result { () throws(StoredValueError) in try DueTarget(stored: row) })
            }
        }
    }

    func unreachedGroups(
        in scope: FaultScope, dueAtOrBefore cutoff: Int64, registeredAtOrBefore start: Int64
    ) throws -> [IntervalGroup] {
        try storeFaults {
            let unreached = UnreachedTargets(scope: scope, dueAtOrBefore: cutoff, registeredAtOrBefore: start)
            return try connection.rows(
                "SELECT DISTINCT push_kind, activity_type, requested_interval FROM push_targets WHERE \(unreached.sql())"
            ) { IntervalGroup(stored: $0) }.compactMap { $0 }
        }
    }

    func holdUnreached(
        in scope: FaultScope, group: IntervalGroup, dueAtOrBefore cutoff: Int64, registeredAtOrBefore start: Int64,
        reason: String, nextPushAt: Int64
    ) throws -> Int {
        let unreached = UnreachedTargets(scope: scope, dueAtOrBefore: cutoff, registeredAtOrBefore: start)
        let interval: PreparedStatement.Value = group.requestedInterval.map { .integer(Int64($0)) } ?? .null
        return try transaction {
            try connection.run(
                """
                UPDATE push_targets SET last_error = \(bind: StoredValue.reason(reason)), next_push_at = \(bind: nextPushAt)
                WHERE \(unreached.sql()) AND push_kind = \(bind: group.kind.name)
                    AND activity_type = \(bind: group.activityType.rawValue) AND requested_interval IS \(bind: interval)
                """
            )
            return connection.changes
        }
    }

    func scopesEverDelivered() throws -> Set<PushScope> {
        try storeFaults {
            Set(
                try connection.statement("SELECT environment, push_kind, app FROM delivered_scopes").rows {
                    PushScope(stored: $0)
                }.compactMap { $0 })
        }
    }

    func markEverDelivered(_ firsts: [PushScope: Int64]) throws {
        try storeFaults {
            // SPEC 5's guard (Schema+Version9 says why not a trigger).
            for (scope, at) in firsts {
                try connection.run(
                    """
                    INSERT OR IGNORE INTO delivered_scopes (environment, push_kind, first_delivered_at, app)
                    VALUES (\(bind: scope.environment.rawValue), \(bind: scope.kind.name), \(bind: at), \(bind: scope.app.rawValue))
                    """)
            }
        }
    }

    /// From the partial index of rows with an ack waiting: a handful at any time, read whole.
    func waitingAcks(among keys: [RegistrationKey]) throws -> [WaitingAck] {
        try storeFaults {
            let wanted = Set(keys)
            let rows = try connection.statement(
                "SELECT \(WaitingAck.columns), attempts FROM push_targets WHERE waiting_ack_at IS NOT NULL AND \(PushKind.wake.sqlIs())"
            ).rows { row -> WaitingAck? in
                guard
                    wanted.contains(
                        RegistrationKey(app: AppName(trusted: row.text(1) ?? ""), token: PushToken(trusted: row.text(0) ?? "")))
                else { return nil }
                // A row this build cannot read keeps its ack waiting: the sweep skips that row anyway.
                return try? WaitingAck(stored: row)
            }
            return rows.compactMap { $0 }
        }
    }

    func add(_ deliveries: [DeliveryCount]) throws {
        try storeFaults {
            for count in deliveries {
                try connection.run(
                    """
                    INSERT INTO delivery_hours (hour, activity_type, environment, push_kind, registrations, delivered, app)
                    VALUES (\(bind: count.hour), \(bind: count.activityType.rawValue), \(bind: count.environment.rawValue), \
                    \(bind: count.kind.name), \(bind: count.registrations), \(bind: count.delivered), \(bind: count.app.rawValue))
                    ON CONFLICT (hour, push_kind, activity_type, environment, app) DO UPDATE SET
                        registrations = registrations + excluded.registrations, delivered = delivered + excluded.delivered
                    """)
            }
        }
    }

    func exchangeSettingsFingerprint(_ fingerprint: String, host: String) throws -> String? {
        try transaction {
            let kept =
                try connection.firstRow("SELECT fingerprint FROM sweep_settings WHERE host = \(bind: host)") { $0.text(0) }
                ?? nil
            try connection.run(
                "INSERT OR REPLACE INTO sweep_settings (host, fingerprint) VALUES (\(bind: host), \(bind: fingerprint))")
            return kept
        }
    }

    func releaseHeld(reasons: [String], now: Int64) throws -> Int {
        guard !reasons.isEmpty else { return 0 }
        return try transaction {
            try connection.run(
                """
                UPDATE push_targets SET next_push_at = \(bind: now)
                WHERE next_push_at > \(bind: now) AND last_error IN (\(binds: reasons.map { .text($0) }))
                """)
            return connection.changes
        }
    }

    /// The SQL that keeps only `environments` (none when all are enabled).
    static func filter(_ environments: [APNsEnvironment]) -> String {
        if Set(environments) == Set(APNsEnvironment.allCases) { return "" }
        let names = environments.map { "'\($0.rawValue)'" }.joined(separator: ",")
        return " AND environment IN (\(names.isEmpty ? "''" : names))"
    }
}
