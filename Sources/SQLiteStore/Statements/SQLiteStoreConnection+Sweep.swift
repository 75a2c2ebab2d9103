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

    func write(_ rows: [OutcomeRow]) throws -> OutcomeRow.Written {
        try storeFaults {
            var results = [OutcomeRow.Result](repeating: .skipped, count: rows.count)
            var deleted: [CountedTarget] = []
            // In key order, so consecutive writes of a batch share B-tree pages.
            for index in rows.indices.sorted(by: { rows[$0].key < rows[$1].key }) {
                results[index] = try write(rows[index], deleted: &deleted)
            }
            return OutcomeRow.Written(results: results, deleted: deleted)
        }
    }

    private func write(_ row: OutcomeRow, deleted: inout [CountedTarget]) throws -> OutcomeRow.Result {
        switch row.change {
        case .delivered(let at, let next):
            let changed = try update(
                row,
                set: """
                    last_push_at = \(bind: at), next_push_at = \(bind: next), push_count = push_count + 1, \
                    consecutive_failures = 0, last_error = NULL
                    """,
                where: Self.stillAsRead(row))
            return changed ? .written : .skipped
        case .kept(let kept):
            return try keep(row, kept) ? .written : .skipped
        case .deleted(let cutoff):
            return try delete(row, registeredAtOrBefore: cutoff, into: &deleted) ? .deleted : .skipped
        case .deletedUnlessRenewed(let cutoff, let kept):
            if try delete(row, registeredAtOrBefore: cutoff, into: &deleted) { return .deleted }
            return try keep(row, kept) ? .written : .skipped
        case .attemptOnly:
            // An answer whose row no batch writes (or a later one does): its attempt goes on the
            // row whatever it holds now; a target already gone keeps nothing.
            return try update(
                row, set: nil,
                where: "registration_token = \(bind: row.key.registration.hex) AND push_kind = \(bind: row.key.kind.name)"
            ) ? .written : .skipped
        }
    }

    /// The row's target as the sweep read it (`RegisteredAtGuard`).
    private static func stillAsRead(_ row: OutcomeRow) -> SQLiteSQL {
        """
        registration_token = \(bind: row.key.registration.hex) AND push_kind = \(bind: row.key.kind.name) \
        AND \(row.registeredAtGuard.sql())
        """
    }

    /// Keeps the row as it was read: failures added, the reason, the next push.
    private func keep(_ row: OutcomeRow, _ kept: OutcomeRow.Change.Kept) throws -> Bool {
        let reason: PreparedStatement.Value = kept.reason.map { .text($0) } ?? .null
        return try update(
            row,
            set: """
                consecutive_failures = consecutive_failures + \(bind: Int64(kept.failuresAdded)), \
                last_error = coalesce(\(bind: reason), last_error), next_push_at = \(bind: kept.nextPushAt), \
                guard_holds = guard_holds + \(bind: Int64(kept.guardHoldsAdded))
                """,
            where: Self.stillAsRead(row))
    }

    /// The target, or its whole registration when it `deletesRegistration`; what it took goes
    /// into `deleted`. Whether anything was there.
    private func delete(_ row: OutcomeRow, registeredAtOrBefore cutoff: Int64, into deleted: inout [CountedTarget]) throws
        -> Bool
    {
        let kind: SQLiteSQL = row.deletesRegistration ? "" : " AND push_kind = \(bind: row.key.kind.name)"
        let gone = try connection.rows(
            """
            DELETE FROM push_targets WHERE registration_token = \(bind: row.key.registration.hex)\(kind) \
            AND app = \(bind: row.key.app.rawValue) AND registered_at <= \(bind: cutoff) \
            RETURNING push_kind, activity_type, environment, last_push_at, app, push_count
            """
        ) { Self.counted($0) }
        deleted += gone.compactMap { $0 }
        return !gone.isEmpty
    }

    /// One UPDATE of `row` with `set` (nil: nothing but the attempts) where `condition` holds;
    /// its attempts as the row says (this answer put first by the SQL function, with no read of
    /// the row before; or all of them anew after a waiting ack was judged), and a waiting ack
    /// cleared when it was judged. Whether the row was there.
    private func update(_ row: OutcomeRow, set: SQLiteSQL?, where condition: SQLiteSQL) throws -> Bool {
        var assignments = set.map { [$0] } ?? []
        switch row.attempts {
        case .unchanged: break
        case .prepend(let attempt):
            let entry = PreparedStatement.Value.blob(AttemptRing.entry(attempt))
            assignments.append("attempts = \(raw: SQLiteConnection.prependAttemptFunction)(\(bind: entry), attempts)")
        case .replace(let all):
            assignments.append("attempts = \(bind: .blob(AttemptRing.encode(all)))")
        }
        if row.clearsWaitingAck { assignments.append("waiting_ack_at = NULL, waiting_changed = NULL") }
        if let unchanged = row.unchangedAcks { assignments.append("unchanged_acks = \(bind: Int64(unchanged))") }
        guard !assignments.isEmpty else { return false }
        let sql: SQLiteSQL = """
            UPDATE push_targets SET \(SQL.joined(assignments, separator: ", ")) \
            WHERE \(condition) AND app = \(bind: row.key.app.rawValue)
            """
        // One statement per shape, found by it: this runs once per pushed row, and building and
        // hashing its text each time cost the sweep a tenth of its pushes a second.
        try connection.statement("outcome update", shape: Self.shape(of: row), text: { sql.text })
            .run(sql.binds)
        return connection.changes > 0
    }

    /// Which of the outcome update's texts `row` takes: what its change sets (an attempt alone
    /// sets nothing else), how its attempts change, whether it clears a waiting ack and whether
    /// it writes the unchanged acks.
    private static func shape(of row: OutcomeRow) -> Int {
        let change: Int
        switch row.change {
        case .delivered: change = 0
        case .kept, .deletedUnlessRenewed, .deleted: change = 1
        case .attemptOnly: change = 2
        }
        let attempts: Int
        switch row.attempts {
        case .unchanged: attempts = 0
        case .prepend: attempts = 1
        case .replace: attempts = 2
        }
        return ((change * 3 + attempts) * 2 + (row.clearsWaitingAck ? 1 : 0)) * 2 + (row.unchangedAcks == nil ? 0 : 1)
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
