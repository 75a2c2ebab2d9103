import LiveActivityDomain
import LiveActivityStore
import SQLiteClient

/// A sweep's statements (SPEC 5) on SQLite. One host runs one sweep at a time (the sweep's
/// lock), so a lease is not needed: a due row is read, not claimed, and an outcome is written
/// only where the row is still registered as it was read.
extension SQLiteStoreConnection: SweepStatements {
    func holdHostName(_ host: String) throws -> HostNameClaim { .held }

    func countExpired(registeredAtOrBefore cutoff: Int64) throws -> Int {
        try storeFaults {
            Int(
                try connection.statement("SELECT count(*) FROM registrations WHERE registered_at <= ?").scalarInt([
                    .integer(cutoff)
                ]) ?? 0)
        }
    }

    func deleteExpired(registeredAtOrBefore cutoff: Int64) throws -> Int {
        try transaction {
            try connection.statement("DELETE FROM registrations WHERE registered_at <= ?").run([.integer(cutoff)])
            return connection.changes
        }
    }

    func dueCounts(atOrBefore cutoff: Int64, environments: [APNsEnvironment]) throws -> [APNsEnvironment: Int] {
        try storeFaults {
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
    }

    /// Rows in the due index's order; no read transaction is held between pages (the outcome
    /// writer commits meanwhile, and a long snapshot would keep the WAL from checkpointing).
    func claimDue(
        atOrBefore cutoff: Int64, environments: [APNsEnvironment], after position: DuePosition?, limit: Int,
        lease: SweepLease
    ) throws -> [DueRead] {
        let after = position == nil ? "" : " AND (next_push_at, push_token) > (?3, ?4)"
        let values: [PreparedStatement.Value] =
            [.integer(cutoff), .integer(Int64(limit))]
            + (position.map { [.integer($0.nextPushAt), .text($0.token.hex)] } ?? [])
        return try storeFaults {
            try connection.statement(
                """
                SELECT push_token, activity_type, environment, registered_at, consecutive_failures, next_push_at,
                    requested_interval, last_push_at, guard_holds
                FROM registrations WHERE next_push_at <= ?1\(after)\(Self.filter(environments))
                ORDER BY next_push_at, push_token LIMIT ?2
                """
            ).rows(values) { row in
                DueRead(
                    position: DuePosition(nextPushAt: row.int(5), token: PushToken(trusted: row.text(0) ?? "")),
                    registration: Result { () throws(StoredValueError) in try row.dueRegistration() })
            }
        }
    }

    func release(_ lease: SweepLease) throws {}

    func unreachedKinds(
        in environment: APNsEnvironment, dueAtOrBefore cutoff: Int64, registeredAtOrBefore start: Int64, lease: SweepLease
    ) throws -> [(activityType: String, requestedInterval: Int64?)] {
        try storeFaults {
            try connection.statement(
                """
                SELECT DISTINCT activity_type, requested_interval FROM registrations
                WHERE next_push_at <= ?2 AND environment = ?1 AND registered_at <= ?3 AND (last_push_at IS NULL OR last_push_at < ?3)
                """
            ).rows([.text(environment.rawValue), .integer(cutoff), .integer(start)]) { row in
                (row.text(0) ?? "", row.optionalInt(1))
            }
        }
    }

    func holdUnreached(
        in environment: APNsEnvironment, dueAtOrBefore cutoff: Int64, registeredAtOrBefore start: Int64,
        activityType: String, requestedInterval: Int64?, reason: String, nextPushAt: Int64, lease: SweepLease
    ) throws -> Int {
        try transaction {
            try connection.statement(
                """
                UPDATE registrations SET last_error = ?1, next_push_at = ?6
                WHERE next_push_at <= ?3 AND environment = ?2 AND registered_at <= ?4
                    AND (last_push_at IS NULL OR last_push_at < ?4) AND activity_type = ?5 AND requested_interval IS ?7
                """
            ).run([
                .text(String(reason.prefix(64))), .text(environment.rawValue), .integer(cutoff), .integer(start),
                .text(activityType), .integer(nextPushAt), requestedInterval.map { .integer($0) } ?? .null,
            ])
            return connection.changes
        }
    }

    func environmentsEverDelivered() throws -> Set<APNsEnvironment> {
        try storeFaults {
            let names = try connection.statement("SELECT environment FROM delivered_environments").rows([]) { $0.text(0) ?? "" }
            return Set(names.compactMap(APNsEnvironment.init(name:)))
        }
    }

    func markEverDelivered(_ firsts: [APNsEnvironment: Int64]) throws {
        try storeFaults {
            // SPEC 5's guard (Schema+Version9 says why not a trigger).
            let statement = try connection.statement(
                "INSERT OR IGNORE INTO delivered_environments (environment, first_delivered_at) VALUES (?, ?)")
            for (environment, at) in firsts { try statement.run([.text(environment.rawValue), .integer(at)]) }
        }
    }

    /// From the partial index of rows with an ack waiting: a handful at any time, read whole.
    func waitingAcks(among tokens: [PushToken]) throws -> [WaitingAck] {
        try storeFaults {
            let wanted = Set(tokens.map(\.hex))
            let rows = try connection.statement(
                """
                SELECT push_token, waiting_ack_at, activity_type, environment, requested_interval, attempts
                FROM registrations WHERE waiting_ack_at IS NOT NULL
                """
            ).rows { row in (row.text(0) ?? "", row.int(1), row.text(2), row.text(3), row.optionalInt(4), row.blob(5)) }
            // A row this build cannot read keeps its ack waiting: the sweep skips that row anyway.
            return rows.compactMap { hex, at, type, environment, requested, ring in
                guard wanted.contains(hex) else { return nil }
                do {
                    let token = try StoredValue.token(hex)
                    return WaitingAck(
                        token: token, at: try StoredValue.time(at, column: "waiting_ack_at"),
                        activityType: try StoredValue.activityType(type), environment: try StoredValue.environment(environment),
                        requestedInterval: try StoredValue.requestedInterval(requested),
                        attempts: AttemptRing.decode(ring ?? [], token: token))
                } catch {
                    return nil
                }
            }
        }
    }

    func write(_ rows: [OutcomeRow], lease: SweepLease) throws -> [OutcomeRow.Result] {
        try storeFaults {
            var results = [OutcomeRow.Result](repeating: .skipped, count: rows.count)
            // In key order, so consecutive writes of a batch share B-tree pages.
            for index in rows.indices.sorted(by: { rows[$0].token.hex < rows[$1].token.hex }) {
                results[index] = try write(rows[index])
            }
            return results
        }
    }

    private func write(_ row: OutcomeRow) throws -> OutcomeRow.Result {
        let token = PreparedStatement.Value.text(row.token.hex)
        let selected = PreparedStatement.Value.integer(row.selectedRegisteredAt)
        switch row.change {
        case .delivered(let at, let next):
            let changed = try update(
                row,
                set:
                    "last_push_at = ?3, next_push_at = ?4, wakeup_count = wakeup_count + 1, consecutive_failures = 0, last_error = NULL",
                where: "push_token = ?1 AND registered_at = ?2", [token, selected, .integer(at), .integer(next)])
            return changed ? .written : .skipped
        case .kept(let kept):
            return try keep(row, kept) ? .written : .skipped
        case .deleted(let cutoff):
            return try delete(row, registeredAtOrBefore: cutoff) ? .deleted : .skipped
        case .deletedUnlessRenewed(let cutoff, let kept):
            if try delete(row, registeredAtOrBefore: cutoff) { return .deleted }
            return try keep(row, kept) ? .written : .skipped
        case .attemptOnly:
            // An answer whose row no batch writes (or a later one does): its attempt goes on the
            // row whatever it holds now; a registration already gone keeps nothing.
            return try update(row, set: nil, where: "push_token = ?1", [token]) ? .written : .skipped
        }
    }

    /// Keeps the row as it was read: failures added, the reason, the next push.
    private func keep(_ row: OutcomeRow, _ kept: OutcomeRow.Change.Kept) throws -> Bool {
        try update(
            row,
            set:
                "consecutive_failures = consecutive_failures + ?3, last_error = ?4, next_push_at = ?5, guard_holds = guard_holds + ?6",
            where: "push_token = ?1 AND registered_at = ?2",
            [
                .text(row.token.hex), .integer(row.selectedRegisteredAt), .integer(Int64(kept.failuresAdded)),
                .text(String(kept.reason.prefix(64))), .integer(kept.nextPushAt), .integer(Int64(kept.guardHoldsAdded)),
            ])
    }

    private func delete(_ row: OutcomeRow, registeredAtOrBefore cutoff: Int64) throws -> Bool {
        try connection.statement("DELETE FROM registrations WHERE push_token = ? AND registered_at <= ?")
            .run([.text(row.token.hex), .integer(cutoff)])
        return connection.changes > 0
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
        switch row.attempts {
        case .unchanged: break
        case .prepend(let attempt):
            bound.append(.blob(AttemptRing.entry(attempt)))
            assignments.append("attempts = \(SQLiteConnection.prependAttemptFunction)(?\(bound.count), attempts)")
        case .replace(let all):
            bound.append(.blob(AttemptRing.encode(all)))
            assignments.append("attempts = ?\(bound.count)")
        }
        if row.clearsWaitingAck { assignments.append("waiting_ack_at = NULL") }
        guard !assignments.isEmpty else { return false }
        try connection.statement("UPDATE registrations SET \(assignments.joined(separator: ", ")) WHERE \(condition)").run(bound)
        return connection.changes > 0
    }

    func add(_ deliveries: [DeliveryCount]) throws {
        try storeFaults {
            let add = try connection.statement(
                """
                INSERT INTO delivery_hours (hour, activity_type, environment, registrations, delivered) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (hour, activity_type, environment) DO UPDATE SET
                    registrations = registrations + excluded.registrations, delivered = delivered + excluded.delivered
                """)
            for count in deliveries {
                try add.run([
                    .integer(count.hour), .text(count.activityType.rawValue), .text(count.environment.rawValue),
                    .integer(count.registrations), .integer(count.delivered),
                ])
            }
        }
    }

    /// Not a trigger on the outcome's UPDATE: a trigger there made SQLite keep a statement
    /// journal for every UPDATE (Schema+Version9), so the batch says which rows it proved.
    func markProven(_ counts: [ProvenCount]) throws {
        try storeFaults {
            let statement = try connection.statement(
                "UPDATE registration_groups SET unproven = unproven - ?3 WHERE activity_type = ?1 AND environment = ?2")
            for count in counts {
                try statement.run([.text(count.activityType.rawValue), .text(count.environment.rawValue), .integer(count.count)])
            }
        }
    }

    /// Keeps the run for `stats` and `/wakeup/metrics`; runs older than 30 days are pruned, and
    /// the hourly figures older than 7.
    func record(_ summary: SweepSummary, host: String) throws {
        try transaction {
            try connection.statement(
                """
                INSERT INTO sweep_runs (started_at, duration_ms, active, sent, skipped, expired, removed, failed, outcome, host)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
            ).run([
                .integer(summary.startedAt), .integer(summary.durationMilliseconds), .integer(Int64(summary.active)),
                .integer(Int64(summary.sent)), .integer(Int64(summary.skipped)), .integer(Int64(summary.expired)),
                .integer(Int64(summary.removed)), .integer(Int64(summary.failed)), .text(summary.outcome), .text(host),
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
            let oldest = DeliveryHour.of(summary.startedAt) - DeliveryHour.kept
            try connection.statement("DELETE FROM delivery_hours WHERE hour < ?").run([.integer(oldest)])
            try connection.statement("DELETE FROM ack_hours WHERE hour < ?").run([.integer(oldest)])
        }
    }

    func exchangeSettingsFingerprint(_ fingerprint: String) throws -> String? {
        try transaction {
            let kept =
                try connection.statement("SELECT fingerprint FROM sweep_settings WHERE id = 1").firstRow { $0.text(0) } ?? nil
            try connection.statement("INSERT OR REPLACE INTO sweep_settings (id, fingerprint) VALUES (1, ?)").run([
                .text(fingerprint)
            ])
            return kept
        }
    }

    func releaseHeld(reasons: [String], now: Int64) throws -> Int {
        guard !reasons.isEmpty else { return 0 }
        return try transaction {
            let placeholders = reasons.indices.map { "?\($0 + 2)" }.joined(separator: ", ")
            try connection.statement(
                "UPDATE registrations SET next_push_at = ?1 WHERE next_push_at > ?1 AND last_error IN (\(placeholders))"
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
}

extension Row {
    /// The columns `claimDue` selects, checked.
    func dueRegistration() throws(StoredValueError) -> DueRegistration {
        let lastPushAt = try StoredValue.optionalTime(optionalInt(7), column: "last_push_at")
        return DueRegistration(
            token: try StoredValue.token(text(0)), activityType: try StoredValue.activityType(text(1)),
            environment: try StoredValue.environment(text(2)),
            registeredAt: try StoredValue.time(int(3), column: "registered_at"), proven: lastPushAt != nil,
            failures: Int(try StoredValue.count(int(4), in: StoredValue.failures, column: "consecutive_failures")),
            nextPushAt: try StoredValue.time(int(5), column: "next_push_at"),
            requestedInterval: try StoredValue.requestedInterval(optionalInt(6)), lastPushAt: lastPushAt,
            guardHolds: Int(try StoredValue.count(int(8), in: StoredValue.failures, column: "guard_holds")))
    }
}
