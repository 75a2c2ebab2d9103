import LiveActivityDomain
import LiveActivityStore
import SQLiteClient

/// A sweep's statements (SPEC 5) on SQLite. One host runs one sweep at a time (the sweep's
/// lock), so it is no `SharedDatabase` (no lease, no host name to lock): a due target is read,
/// not claimed, and an outcome is written only where its registration is still registered as it
/// was read.
extension SQLiteStoreConnection: SweepStatements {
    /// Registrations are their wake targets; every target carries its registration's time.
    func countExpired(registeredAtOrBefore cutoff: Int64) throws -> Int {
        try storeFaults {
            Int(
                try connection.statement(
                    "SELECT count(*) FROM push_targets WHERE registered_at <= ? AND push_kind = 'wake'"
                ).scalarInt([.integer(cutoff)]) ?? 0)
        }
    }

    /// Every kind's targets, written as the two partial indexes on registered_at divide them, so
    /// each range is read from its index (one index over all kinds would cost the figures a kind
    /// compared per entry).
    func deleteExpired(registeredAtOrBefore cutoff: Int64) throws -> [CountedTarget: Int] {
        try storeFaults {
            let gone = try connection.statement(
                """
                DELETE FROM push_targets WHERE (push_kind = 'wake' AND registered_at <= ?1) OR (push_kind <> 'wake' AND registered_at <= ?1)
                RETURNING push_kind, activity_type, environment, last_push_at, app, push_count
                """
            ).rows([.integer(cutoff)]) { Self.counted($0) }
            return CountedTarget.tally(gone.compactMap { $0 })
        }
    }

    func dueCounts(atOrBefore cutoff: Int64, environments: [APNsEnvironment]) throws -> [PushScope: Int] {
        try storeFaults {
            let counts = try connection.statement(
                """
                SELECT environment, push_kind, app, count(*) FROM push_targets
                WHERE next_push_at <= ?\(Self.filter(environments)) GROUP BY environment, push_kind, app
                """
            ).rows([.integer(cutoff)]) { row in
                (
                    APNsEnvironment(name: row.text(0) ?? ""), PushKind(name: row.text(1) ?? ""),
                    row.text(2).flatMap(AppName.init),
                    Int(row.int(3))
                )
            }
            var result: [PushScope: Int] = [:]
            for case (let environment?, let kind?, let app?, let count) in counts {
                result[PushScope(environment: environment, kind: kind, app: app), default: 0] += count
            }
            return result
        }
    }

    /// Rows in the due index's order; no read transaction is held between pages (the outcome
    /// writer commits meanwhile, and a long snapshot would keep the WAL from checkpointing).
    func claimDue(
        atOrBefore cutoff: Int64, environments: [APNsEnvironment], after position: DuePosition?, limit: Int
    ) throws -> [DueRead] {
        let after = position == nil ? "" : " AND (next_push_at, registration_token, push_kind, app) > (?3, ?4, ?5, ?6)"
        let values: [PreparedStatement.Value] =
            [.integer(cutoff), .integer(Int64(limit))]
            + (position.map {
                [.integer($0.nextPushAt), .text($0.key.registration.hex), .text($0.key.kind.name), .text($0.key.app.rawValue)]
            } ?? [])
        return try storeFaults {
            try connection.statement(
                """
                SELECT \(TargetColumns.due) FROM push_targets
                WHERE next_push_at <= ?1\(after)\(Self.filter(environments))\(Self.knownKinds)
                ORDER BY next_push_at, registration_token, push_kind, app LIMIT ?2
                """
            ).rows(values) { row in
                DueRead(
                    position: DuePosition(stored: row),
                    target: Result { () throws(StoredValueError) in try DueTarget(stored: row) })
            }
        }
    }

    /// The targets of `scope` due at `cutoff`, registered at or before `start` and not answered
    /// 200 since: what a fault stopped before the sweep reached them (`?1` to `?5`, `scopeValues`).
    private static let unreached = """
        next_push_at <= ?2 AND environment = ?1 AND registered_at <= ?3 AND (last_push_at IS NULL OR last_push_at < ?3)
        AND (?4 IS NULL OR push_kind = ?4) AND app = ?5
        """

    func unreachedGroups(
        in scope: FaultScope, dueAtOrBefore cutoff: Int64, registeredAtOrBefore start: Int64
    ) throws -> [IntervalGroup] {
        try storeFaults {
            try connection.statement(
                "SELECT DISTINCT push_kind, activity_type, requested_interval FROM push_targets WHERE \(Self.unreached)"
            ).rows(Self.scopeValues(scope, cutoff: cutoff, start: start)) { row in
                Self.group(kind: row.text(0), type: row.text(1), requested: row.optionalInt(2))
            }.compactMap { $0 }
        }
    }

    func holdUnreached(
        in scope: FaultScope, group: IntervalGroup, dueAtOrBefore cutoff: Int64, registeredAtOrBefore start: Int64,
        reason: String, nextPushAt: Int64
    ) throws -> Int {
        try transaction {
            try connection.statement(
                """
                UPDATE push_targets SET last_error = ?6, next_push_at = ?7
                WHERE \(Self.unreached) AND push_kind = ?8 AND activity_type = ?9 AND requested_interval IS ?10
                """
            ).run(
                Self.scopeValues(scope, cutoff: cutoff, start: start) + [
                    .text(StoredValue.reason(reason)), .integer(nextPushAt), .text(group.kind.name),
                    .text(group.activityType.rawValue), group.requestedInterval.map { .integer(Int64($0)) } ?? .null,
                ])
            return connection.changes
        }
    }

    /// The values of `unreached`: the scope's environment, the cutoff, the start, its kind (NULL:
    /// every kind) and its app.
    private static func scopeValues(_ scope: FaultScope, cutoff: Int64, start: Int64) -> [PreparedStatement.Value] {
        [
            .text(scope.environment.rawValue), .integer(cutoff), .integer(start), scope.kind.map { .text($0.name) } ?? .null,
            .text(scope.app.rawValue),
        ]
    }

    /// A group read back; nil for a kind or type this build does not know, or an interval out of range.
    static func group(kind: String?, type: String?, requested: Int64?) -> IntervalGroup? {
        guard let kind = kind.flatMap(PushKind.init(name:)), let type = type.flatMap(ActivityType.init(rawValue:)) else {
            return nil
        }
        // "None asked" is a valid interval; only one out of range leaves the group out.
        let interval: Int?
        do { interval = try StoredValue.requestedInterval(requested) } catch { return nil }
        return IntervalGroup(kind: kind, activityType: type, requestedInterval: interval)
    }

    func scopesEverDelivered() throws -> Set<PushScope> {
        try storeFaults {
            let rows = try connection.statement("SELECT environment, push_kind, app FROM delivered_scopes").rows([]) {
                (APNsEnvironment(name: $0.text(0) ?? ""), PushKind(name: $0.text(1) ?? ""), $0.text(2).flatMap(AppName.init))
            }
            return Set(
                rows.compactMap { environment, kind, app in
                    guard let environment, let kind, let app else { return nil }
                    return PushScope(environment: environment, kind: kind, app: app)
                })
        }
    }

    func markEverDelivered(_ firsts: [PushScope: Int64]) throws {
        try storeFaults {
            // SPEC 5's guard (Schema+Version9 says why not a trigger).
            let statement = try connection.statement(
                "INSERT OR IGNORE INTO delivered_scopes (environment, push_kind, first_delivered_at, app) VALUES (?, ?, ?, ?)")
            for (scope, at) in firsts {
                try statement.run([
                    .text(scope.environment.rawValue), .text(scope.kind.name), .integer(at), .text(scope.app.rawValue),
                ])
            }
        }
    }

    /// From the partial index of rows with an ack waiting: a handful at any time, read whole.
    func waitingAcks(among keys: [RegistrationKey]) throws -> [WaitingAck] {
        try storeFaults {
            let wanted = Set(keys)
            let rows = try connection.statement(
                "SELECT \(WaitingAck.columns), attempts FROM push_targets WHERE waiting_ack_at IS NOT NULL AND push_kind = 'wake'"
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
        let key: [PreparedStatement.Value] = [.text(row.key.registration.hex), .text(row.key.kind.name)]
        let selected = PreparedStatement.Value.integer(row.selectedRegisteredAt)
        switch row.change {
        case .delivered(let at, let next):
            let changed = try update(
                row,
                set:
                    "last_push_at = ?4, next_push_at = ?5, push_count = push_count + 1, consecutive_failures = 0, last_error = NULL",
                where: "registration_token = ?1 AND push_kind = ?2 AND registered_at = ?3",
                key + [selected, .integer(at), .integer(next)])
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
            return try update(row, set: nil, where: "registration_token = ?1 AND push_kind = ?2", key) ? .written : .skipped
        }
    }

    /// Keeps the row as it was read: failures added, the reason, the next push.
    private func keep(_ row: OutcomeRow, _ kept: OutcomeRow.Change.Kept) throws -> Bool {
        try update(
            row,
            set:
                "consecutive_failures = consecutive_failures + ?4, last_error = coalesce(?5, last_error), next_push_at = ?6, "
                + "guard_holds = guard_holds + ?7",
            where: "registration_token = ?1 AND push_kind = ?2 AND registered_at = ?3",
            [
                .text(row.key.registration.hex), .text(row.key.kind.name), .integer(row.selectedRegisteredAt),
                .integer(Int64(kept.failuresAdded)), kept.reason.map { .text($0) } ?? .null, .integer(kept.nextPushAt),
                .integer(Int64(kept.guardHoldsAdded)),
            ])
    }

    /// The target, or its whole registration when it `deletesRegistration`; what it took goes
    /// into `deleted`. Whether anything was there.
    private func delete(_ row: OutcomeRow, registeredAtOrBefore cutoff: Int64, into deleted: inout [CountedTarget]) throws
        -> Bool
    {
        let returning = " RETURNING push_kind, activity_type, environment, last_push_at, app, push_count"
        let app = PreparedStatement.Value.text(row.key.app.rawValue)
        let gone =
            row.deletesRegistration
            ? try connection.statement(
                "DELETE FROM push_targets WHERE registration_token = ? AND app = ? AND registered_at <= ?" + returning
            ).rows([.text(row.key.registration.hex), app, .integer(cutoff)]) { Self.counted($0) }
            : try connection.statement(
                "DELETE FROM push_targets WHERE registration_token = ? AND push_kind = ? AND app = ? AND registered_at <= ?"
                    + returning
            ).rows([.text(row.key.registration.hex), .text(row.key.kind.name), app, .integer(cutoff)]) { Self.counted($0) }
        deleted += gone.compactMap { $0 }
        return !gone.isEmpty
    }

    /// One UPDATE of `row` with `set` (nil: nothing but the attempts) where `condition` holds,
    /// `values` bound first; its attempts as the row says (this answer put first by the SQL
    /// function, with no read of the row before; or all of them anew after a waiting ack was
    /// judged), and a waiting ack cleared when it was judged. Whether the row was there.
    private func update(
        _ row: OutcomeRow, set: String?, where condition: String, _ values: [PreparedStatement.Value]
    ) throws -> Bool {
        var assignments = set.map { [$0] } ?? []
        var bound = values
        bound.append(.text(row.key.app.rawValue))
        let inApp = " AND app = ?\(bound.count)"
        switch row.attempts {
        case .unchanged: break
        case .prepend(let attempt):
            bound.append(.blob(AttemptRing.entry(attempt)))
            assignments.append("attempts = \(SQLiteConnection.prependAttemptFunction)(?\(bound.count), attempts)")
        case .replace(let all):
            bound.append(.blob(AttemptRing.encode(all)))
            assignments.append("attempts = ?\(bound.count)")
        }
        if row.clearsWaitingAck { assignments.append("waiting_ack_at = NULL, waiting_changed = NULL") }
        if let unchanged = row.unchangedAcks {
            bound.append(.integer(Int64(unchanged)))
            assignments.append("unchanged_acks = ?\(bound.count)")
        }
        guard !assignments.isEmpty else { return false }
        try connection.statement(
            "UPDATE push_targets SET \(assignments.joined(separator: ", ")) WHERE \(condition)\(inApp)"
        ).run(bound)
        return connection.changes > 0
    }

    func add(_ deliveries: [DeliveryCount]) throws {
        try storeFaults {
            let add = try connection.statement(
                """
                INSERT INTO delivery_hours (hour, activity_type, environment, push_kind, registrations, delivered, app)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (hour, push_kind, activity_type, environment, app) DO UPDATE SET
                    registrations = registrations + excluded.registrations, delivered = delivered + excluded.delivered
                """)
            for count in deliveries {
                try add.run([
                    .integer(count.hour), .text(count.activityType.rawValue), .text(count.environment.rawValue),
                    .text(count.kind.name), .integer(count.registrations), .integer(count.delivered), .text(count.app.rawValue),
                ])
            }
        }
    }

    func exchangeSettingsFingerprint(_ fingerprint: String, host: String) throws -> String? {
        try transaction {
            let kept =
                try connection.statement("SELECT fingerprint FROM sweep_settings WHERE host = ?").firstRow([.text(host)]) {
                    $0.text(0)
                } ?? nil
            try connection.statement("INSERT OR REPLACE INTO sweep_settings (host, fingerprint) VALUES (?, ?)").run([
                .text(host), .text(fingerprint),
            ])
            return kept
        }
    }

    func releaseHeld(reasons: [String], now: Int64) throws -> Int {
        guard !reasons.isEmpty else { return 0 }
        return try transaction {
            let placeholders = reasons.indices.map { "?\($0 + 2)" }.joined(separator: ", ")
            try connection.statement(
                "UPDATE push_targets SET next_push_at = ?1 WHERE next_push_at > ?1 AND last_error IN (\(placeholders))"
            ).run([.integer(now)] + reasons.map { .text($0) })
            return connection.changes
        }
    }

    /// The SQL that keeps only `environments` (none when all are enabled).
    static func filter(_ environments: [APNsEnvironment]) -> String {
        if Set(environments) == Set(APNsEnvironment.allCases) { return "" }
        let names = environments.map { "'\($0.rawValue)'" }.joined(separator: ",")
        return " AND environment IN (\(names.isEmpty ? "''" : names))"
    }

    /// The SQL that keeps the kinds this build pushes: a kind a newer build stored is left as it is.
    static let knownKinds = " AND push_kind IN (" + PushKind.all.map { "'\($0.name)'" }.joined(separator: ",") + ")"
}
