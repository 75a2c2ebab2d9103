import LiveActivityDomain
import LiveActivityStore
import PostgresClient

/// A sweep's statements (SPEC 5) on PostgreSQL, where several hosts sweep the same database at the
/// same minute with no leader (SPEC 5, "Several hosts"): a sweep claims the rows it pushes under
/// a lease (this host, a random id, an end by the database's clock) in one statement that commits
/// before any push, writes each outcome only where the row still carries its lease id, and gives
/// back what it claimed and never wrote. A lease stamped with this host's name is this host's to
/// take again: the sweep's lock says no earlier sweep of the host still runs.
extension PostgresStoreConnection: SweepStatements {
    /// The SQL of a row no other live sweep holds: no lease in force, or one of this host's
    /// (its name bound as parameter `$n`).
    private func free(host parameter: Int) -> String {
        "(lease_until IS NULL OR lease_until < liveactivity_now_ms() OR lease_host = $\(parameter))"
    }

    /// A session-level advisory lock, released when the session ends however it ends (a killed
    /// sweep's with its connection), keyed by a 64-bit hash of the name: another name's lock
    /// colliding with it is a chance of one in 2^64.
    /// The advisory lock on the name. Advisory locks need no grant, so any role that may connect
    /// could hold it (docs/POSTGRESQL.md's roles let no other role connect): when it is taken, who holds it
    /// tells a second sweep under the same name from someone else.
    func holdHostName(_ host: String) throws -> HostNameClaim {
        try storeFaults {
            let key = "hashtextextended('liveactivity sweep host ' || $1, 0)"
            let held = try statement("SELECT pg_try_advisory_lock(\(key))").firstRow([.text(host)]) { $0.bool(0) } ?? false
            if held { return .held }
            let holders = try statement(
                """
                SELECT a.usename::text, a.usename = current_user FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
                WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
                    AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                    AND l.classid::bigint = ((\(key)) >> 32) & 4294967295 AND l.objid::bigint = (\(key)) & 4294967295
                """
            ).rows([.text(host)]) { (role: $0.text(0) ?? "?", ours: $0.bool(1)) }
            if let stranger = holders.first(where: { !$0.ours }) { return .heldByAnotherRole(stranger.role) }
            return .inUseBySweep
        }
    }

    func countExpired(registeredAtOrBefore cutoff: Int64) throws -> Int {
        try storeFaults {
            Int(try statement("SELECT count(*) FROM registrations WHERE registered_at <= $1").scalarInt([.integer(cutoff)]) ?? 0)
        }
    }

    func deleteExpired(registeredAtOrBefore cutoff: Int64) throws -> Int {
        try storeFaults {
            try statement("DELETE FROM registrations WHERE registered_at <= $1").run([.integer(cutoff)]).rowsAffected
        }
    }

    func dueCounts(atOrBefore cutoff: Int64, environments: [APNsEnvironment]) throws -> [APNsEnvironment: Int] {
        try storeFaults {
            let counts = try statement(
                """
                SELECT environment, count(*) FROM registrations
                WHERE next_push_at <= $1 AND ($2::text[] IS NULL OR environment = ANY($2::text[])) GROUP BY environment
                """
            ).rows([.integer(cutoff), Self.filter(environments)]) { row in
                (APNsEnvironment(name: row.text(0) ?? ""), Int(row.int(1)))
            }
            var result: [APNsEnvironment: Int] = [:]
            for case (let environment?, let count) in counts { result[environment, default: 0] += count }
            return result
        }
    }

    /// One statement claims a page and commits before any push: the CTE locks the rows it picks
    /// (`FOR UPDATE SKIP LOCKED`: another host's claim in progress is passed over, not waited for)
    /// and the UPDATE stamps exactly those (a plain subquery with LIMIT may update more rows than
    /// its limit). A row this sweep already claimed keeps its lease id and is not claimed twice.
    func claimDue(
        atOrBefore cutoff: Int64, environments: [APNsEnvironment], after position: DuePosition?, limit: Int,
        lease: SweepLease
    ) throws -> [DueRead] {
        try storeFaults {
            let reads = try statement(
                """
                WITH due AS (
                    SELECT push_token FROM registrations
                    WHERE next_push_at <= $1 AND ($2::text[] IS NULL OR environment = ANY($2::text[])) AND \(free(host: 4))
                        AND lease_id IS DISTINCT FROM $3
                    ORDER BY next_push_at, push_token LIMIT $5
                    FOR UPDATE SKIP LOCKED
                )
                UPDATE registrations r SET lease_id = $3, lease_host = $4, lease_until = liveactivity_now_ms() + $6 * 1000
                FROM due WHERE r.push_token = due.push_token
                RETURNING r.push_token, r.activity_type, r.environment, r.registered_at, r.consecutive_failures, r.next_push_at,
                    r.requested_interval, r.last_push_at, r.guard_holds
                """
            ).rows([
                .integer(cutoff), Self.filter(environments), .text(lease.id), .text(lease.host),
                .integer(Int64(limit)), .integer(Int64(lease.seconds)),
            ]) { row in
                DueRead(
                    position: DuePosition(nextPushAt: row.int(5), token: PushToken(trusted: row.text(0) ?? "")),
                    registration: Result { () throws(StoredValueError) in try row.dueRegistration() })
            }
            // UPDATE ... RETURNING has no order of its own: the due order, as the cursor expects.
            return reads.sorted {
                ($0.position.nextPushAt, $0.position.token.hex) < ($1.position.nextPushAt, $1.position.token.hex)
            }
        }
    }

    /// The environments a due query keeps, NULL for all of them: a row of an environment this
    /// build does not know is then read (and refused as a value it cannot use), as on SQLite.
    private static func filter(_ environments: [APNsEnvironment]) -> PostgresValue {
        Set(environments) == Set(APNsEnvironment.allCases) ? .null : PostgresArray.text(environments.map(\.rawValue))
    }

    func release(_ lease: SweepLease) throws {
        try storeFaults {
            try statement("UPDATE registrations SET lease_until = NULL WHERE lease_id = $1 AND lease_until IS NOT NULL")
                .run([.text(lease.id)])
        }
    }

    func unreachedKinds(
        in environment: APNsEnvironment, dueAtOrBefore cutoff: Int64, registeredAtOrBefore start: Int64, lease: SweepLease
    ) throws -> [(activityType: String, requestedInterval: Int64?)] {
        try storeFaults {
            try statement(
                """
                SELECT DISTINCT activity_type, requested_interval FROM registrations
                WHERE next_push_at <= $2 AND environment = $1 AND registered_at <= $3
                    AND (last_push_at IS NULL OR last_push_at < $3) AND \(free(host: 4))
                """
            ).rows([.text(environment.rawValue), .integer(cutoff), .integer(start), .text(lease.host)]) { row in
                (row.text(0) ?? "", row.optionalInt(1))
            }
        }
    }

    func holdUnreached(
        in environment: APNsEnvironment, dueAtOrBefore cutoff: Int64, registeredAtOrBefore start: Int64,
        activityType: String, requestedInterval: Int64?, reason: String, nextPushAt: Int64, lease: SweepLease
    ) throws -> Int {
        try storeFaults {
            try statement(
                """
                UPDATE registrations SET last_error = $1, next_push_at = $6
                WHERE next_push_at <= $3 AND environment = $2 AND registered_at <= $4
                    AND (last_push_at IS NULL OR last_push_at < $4) AND activity_type = $5
                    AND requested_interval IS NOT DISTINCT FROM $7::bigint AND \(free(host: 8))
                """
            ).run([
                .text(String(reason.prefix(64))), .text(environment.rawValue), .integer(cutoff), .integer(start),
                .text(activityType), .integer(nextPushAt), requestedInterval.map { .integer($0) } ?? .null, .text(lease.host),
            ]).rowsAffected
        }
    }

    func environmentsEverDelivered() throws -> Set<APNsEnvironment> {
        try storeFaults {
            Set(
                try statement("SELECT environment FROM delivered_environments").rows { $0.text(0) ?? "" }.compactMap(
                    APNsEnvironment.init(name:)))
        }
    }

    func markEverDelivered(_ firsts: [APNsEnvironment: Int64]) throws {
        guard !firsts.isEmpty else { return }
        let pairs = firsts.sorted { $0.key.rawValue < $1.key.rawValue }
        try storeFaults {
            try statement(
                """
                INSERT INTO delivered_environments (environment, first_delivered_at)
                SELECT * FROM unnest($1::text[], $2::bigint[]) ON CONFLICT (environment) DO NOTHING
                """
            ).run([PostgresArray.text(pairs.map(\.key.rawValue)), PostgresArray.integers(pairs.map(\.value))])
        }
    }

    /// From the partial index of rows with an ack waiting; locked until the batch commits.
    func waitingAcks(among tokens: [PushToken]) throws -> [WaitingAck] {
        guard !tokens.isEmpty else { return [] }
        return try storeFaults {
            let rows = try statement(
                """
                SELECT push_token, waiting_ack_at, activity_type, environment, requested_interval, \(attemptsJoined)
                FROM registrations WHERE waiting_ack_at IS NOT NULL AND push_token = ANY($1::text[])
                ORDER BY push_token FOR UPDATE
                """
            ).rows([PostgresArray.text(tokens.map(\.hex))]) { row in
                (row.text(0), row.int(1), row.text(2), row.text(3), row.optionalInt(4), row.bytes(5))
            }
            // A row this build cannot read keeps its ack waiting: the sweep skips that row anyway.
            return rows.compactMap { hex, at, type, environment, requested, ring in
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

    /// One statement per kind of change for the whole batch, each only where the row still carries
    /// this sweep's lease id (a row another host took since, the app refreshed or deleted is left
    /// as it is); each ends the lease but keeps its id, so a later write of the same run (a
    /// failure, then its environment's hold) still reaches the row.
    func write(_ rows: [OutcomeRow], lease: SweepLease) throws -> [OutcomeRow.Result] {
        try storeFaults {
            var results = [OutcomeRow.Result](repeating: .skipped, count: rows.count)
            var delivered: [Int] = []
            var kept: [(Int, OutcomeRow.Change.Kept)] = []
            var deleted: [(Int, Int64)] = []
            var attemptOnly: [Int] = []
            for (index, row) in rows.enumerated() {
                switch row.change {
                case .delivered: delivered.append(index)
                case .kept(let keep): kept.append((index, keep))
                case .deleted(let cutoff): deleted.append((index, cutoff))
                case .deletedUnlessRenewed(let cutoff, _): deleted.append((index, cutoff))
                case .attemptOnly: attemptOnly.append(index)
                }
            }
            let removed = try delete(deleted.map { (rows[$0.0].token, $0.1) }, lease: lease)
            for (index, _) in deleted where removed.contains(rows[index].token.hex) { results[index] = .deleted }
            // A 410 for a token registered again after APNs's timestamp keeps the row.
            for (index, _) in deleted where results[index] != .deleted {
                if case .deletedUnlessRenewed(_, let keep) = rows[index].change { kept.append((index, keep)) }
            }
            for token in try deliver(delivered.map { rows[$0] }, lease: lease) {
                if let index = delivered.first(where: { rows[$0].token.hex == token }) { results[index] = .written }
            }
            let keptTokens = try keep(kept.map { (rows[$0.0], $0.1) }, lease: lease)
            for (index, _) in kept where keptTokens.contains(rows[index].token.hex) { results[index] = .written }
            let placed = try placeAttempts(attemptOnly.map { rows[$0] })
            for index in attemptOnly where placed.contains(rows[index].token.hex) { results[index] = .written }
            // All of a row's attempts anew (a waiting ack marked one), where its write reached it.
            for (index, row) in rows.enumerated() where results[index] == .written {
                guard case .replace(let attempts) = row.attempts else { continue }
                try statement(
                    """
                    UPDATE registrations SET attempts = ARRAY(SELECT decode(h, 'hex') FROM unnest($2::text[]) WITH ORDINALITY AS a(h, o) ORDER BY o)
                    WHERE push_token = $1
                    """
                ).run([.text(row.token.hex), PostgresArray.text(Self.entries(attempts))])
            }
            return results
        }
    }

    /// The entry an answer puts first (hex), nil for none or for a row whose attempts are replaced after.
    private static func entry(_ row: OutcomeRow) -> String? {
        guard case .prepend(let attempt) = row.attempts else { return nil }
        return PostgresArray.hex(AttemptRing.entry(attempt))
    }

    /// The attempts put first, the oldest beyond the kept number (bound as `$n`) dropped.
    private static func prepended(entry parameter: String, kept: Int) -> String {
        "CASE WHEN \(parameter) IS NULL THEN r.attempts ELSE (ARRAY[decode(\(parameter), 'hex')] || r.attempts)[1:$\(kept)] END"
    }

    private func deliver(_ rows: [OutcomeRow], lease: SweepLease) throws(PostgresError) -> Set<String> {
        guard !rows.isEmpty else { return [] }
        var at: [Int64?] = []
        var next: [Int64?] = []
        for row in rows {
            guard case .delivered(let when, let nextPush) = row.change else { continue }
            at.append(when)
            next.append(nextPush)
        }
        return Set(
            try statement(
                """
                UPDATE registrations r SET last_push_at = u.at, next_push_at = u.next, wakeup_count = r.wakeup_count + 1,
                    consecutive_failures = 0, last_error = NULL, attempts = \(Self.prepended(entry: "u.entry", kept: 7)),
                    waiting_ack_at = CASE WHEN u.clear THEN NULL ELSE r.waiting_ack_at END, lease_until = NULL
                FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::bool[]) AS u(token, at, next, entry, clear)
                WHERE r.push_token = u.token AND r.lease_id = $6
                RETURNING r.push_token
                """
            ).rows([
                PostgresArray.text(rows.map(\.token.hex)), PostgresArray.integers(at), PostgresArray.integers(next),
                PostgresArray.text(rows.map(Self.entry)), PostgresArray.text(rows.map { $0.clearsWaitingAck ? "true" : "false" }),
                .text(lease.id), .integer(Int64(PushAttempt.kept)),
            ]) { $0.text(0) ?? "" })
    }

    private func keep(_ rows: [(OutcomeRow, OutcomeRow.Change.Kept)], lease: SweepLease) throws(PostgresError) -> Set<String> {
        guard !rows.isEmpty else { return [] }
        return Set(
            try statement(
                """
                UPDATE registrations r SET consecutive_failures = r.consecutive_failures + u.added, last_error = u.reason,
                    next_push_at = u.next, attempts = \(Self.prepended(entry: "u.entry", kept: 8)),
                    waiting_ack_at = CASE WHEN u.clear THEN NULL ELSE r.waiting_ack_at END, lease_until = NULL,
                    guard_holds = r.guard_holds + u.holds
                FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[], $5::text[], $6::bool[], $9::bigint[])
                    AS u(token, added, reason, next, entry, clear, holds)
                WHERE r.push_token = u.token AND r.lease_id = $7
                RETURNING r.push_token
                """
            ).rows([
                PostgresArray.text(rows.map(\.0.token.hex)), PostgresArray.integers(rows.map { Int64($0.1.failuresAdded) }),
                PostgresArray.text(rows.map { String($0.1.reason.prefix(64)) }), PostgresArray.integers(rows.map(\.1.nextPushAt)),
                PostgresArray.text(rows.map { Self.entry($0.0) }),
                PostgresArray.text(rows.map { $0.0.clearsWaitingAck ? "true" : "false" }), .text(lease.id),
                .integer(Int64(PushAttempt.kept)), PostgresArray.integers(rows.map { Int64($0.1.guardHoldsAdded) }),
            ]) { $0.text(0) ?? "" })
    }

    private func delete(_ rows: [(PushToken, Int64)], lease: SweepLease) throws(PostgresError) -> Set<String> {
        guard !rows.isEmpty else { return [] }
        return Set(
            try statement(
                """
                DELETE FROM registrations r USING unnest($1::text[], $2::bigint[]) AS u(token, cutoff)
                WHERE r.push_token = u.token AND r.registered_at <= u.cutoff AND r.lease_id = $3
                RETURNING r.push_token
                """
            ).rows([PostgresArray.text(rows.map(\.0.hex)), PostgresArray.integers(rows.map(\.1)), .text(lease.id)]) {
                $0.text(0) ?? ""
            })
    }

    /// An answer whose row no batch writes: its attempt goes on the row whatever it holds now.
    private func placeAttempts(_ rows: [OutcomeRow]) throws(PostgresError) -> Set<String> {
        guard !rows.isEmpty else { return [] }
        return Set(
            try statement(
                """
                UPDATE registrations r SET attempts = \(Self.prepended(entry: "u.entry", kept: 3)),
                    waiting_ack_at = CASE WHEN u.clear THEN NULL ELSE r.waiting_ack_at END
                FROM unnest($1::text[], $2::text[], $4::bool[]) AS u(token, entry, clear)
                WHERE r.push_token = u.token
                RETURNING r.push_token
                """
            ).rows([
                PostgresArray.text(rows.map(\.token.hex)), PostgresArray.text(rows.map(Self.entry)),
                .integer(Int64(PushAttempt.kept)),
                PostgresArray.text(rows.map { $0.clearsWaitingAck ? "true" : "false" }),
            ]) { $0.text(0) ?? "" })
    }

    func add(_ deliveries: [DeliveryCount]) throws {
        guard !deliveries.isEmpty else { return }
        try storeFaults {
            try statement(
                """
                INSERT INTO delivery_hours AS h (hour, activity_type, environment, registrations, delivered)
                SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[], $5::bigint[])
                ON CONFLICT (hour, activity_type, environment) DO UPDATE SET
                    registrations = h.registrations + excluded.registrations, delivered = h.delivered + excluded.delivered
                """
            ).run([
                PostgresArray.integers(deliveries.map(\.hour)), PostgresArray.text(deliveries.map(\.activityType.rawValue)),
                PostgresArray.text(deliveries.map(\.environment.rawValue)),
                PostgresArray.integers(deliveries.map(\.registrations)),
                PostgresArray.integers(deliveries.map(\.delivered)),
            ])
        }
    }

    func markProven(_ counts: [ProvenCount]) throws {
        guard !counts.isEmpty else { return }
        try storeFaults {
            try statement(
                """
                UPDATE registration_groups g SET unproven = g.unproven - u.n
                FROM unnest($1::text[], $2::text[], $3::bigint[]) AS u(activity_type, environment, n)
                WHERE g.activity_type = u.activity_type AND g.environment = u.environment
                """
            ).run([
                PostgresArray.text(counts.map(\.activityType.rawValue)), PostgresArray.text(counts.map(\.environment.rawValue)),
                PostgresArray.integers(counts.map(\.count)),
            ])
        }
    }

    /// The run, its reasons and faults in one transaction; then the history older than 30 days
    /// and the figures older than 7 pruned (idempotent: several hosts may prune the same minute).
    func record(_ summary: SweepSummary, host: String) throws {
        try transaction {
            let runID =
                try statement(
                    """
                    INSERT INTO sweep_runs (started_at, duration_ms, active, sent, skipped, expired, removed, failed, outcome, host)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id
                    """
                ).scalarInt([
                    .integer(summary.startedAt), .integer(summary.durationMilliseconds), .integer(Int64(summary.active)),
                    .integer(Int64(summary.sent)), .integer(Int64(summary.skipped)), .integer(Int64(summary.expired)),
                    .integer(Int64(summary.removed)), .integer(Int64(summary.failed)), .text(summary.outcome), .text(host),
                ]) ?? 0
            for (kind, reasons) in [("failed", summary.failureReasons), ("removed", summary.removalReasons)] {
                for (reason, count) in reasons.sorted(by: { $0.key < $1.key }) {
                    try statement("INSERT INTO sweep_reasons (run_id, kind, reason, count) VALUES ($1, $2, $3, $4)")
                        .run([.integer(runID), .text(kind), .text(reason), .integer(Int64(count))])
                }
            }
            for fault in summary.faults {
                try statement(
                    """
                    INSERT INTO sweep_faults (run_id, environment, kind, reason, pushes) VALUES ($1, $2, $3, $4, $5)
                    ON CONFLICT (run_id, environment, kind) DO UPDATE SET reason = excluded.reason, pushes = excluded.pushes
                    """
                ).run([
                    .integer(runID), .text(fault.environment.rawValue), .text(fault.kind.rawValue), .text(fault.reason),
                    .integer(Int64(fault.pushes)),
                ])
            }
            let monthAgo = summary.startedAt - 30 * 86_400_000
            try statement("DELETE FROM sweep_reasons WHERE run_id IN (SELECT id FROM sweep_runs WHERE started_at < $1)")
                .run([.integer(monthAgo)])
            try statement("DELETE FROM sweep_faults WHERE run_id IN (SELECT id FROM sweep_runs WHERE started_at < $1)")
                .run([.integer(monthAgo)])
            try statement("DELETE FROM sweep_runs WHERE started_at < $1").run([.integer(monthAgo)])
            let oldest = DeliveryHour.of(summary.startedAt) - DeliveryHour.kept
            try statement("DELETE FROM delivery_hours WHERE hour < $1").run([.integer(oldest)])
            try statement("DELETE FROM ack_hours WHERE hour < $1").run([.integer(oldest)])
        }
    }

    func exchangeSettingsFingerprint(_ fingerprint: String) throws -> String? {
        try transaction {
            let kept =
                try statement("SELECT fingerprint FROM sweep_settings WHERE id = 1 FOR UPDATE").firstRow { $0.text(0) } ?? nil
            try statement(
                """
                INSERT INTO sweep_settings (id, fingerprint) VALUES (1, $1)
                ON CONFLICT (id) DO UPDATE SET fingerprint = excluded.fingerprint
                """
            ).run([.text(fingerprint)])
            return kept
        }
    }

    func releaseHeld(reasons: [String], now: Int64) throws -> Int {
        guard !reasons.isEmpty else { return 0 }
        return try storeFaults {
            try statement("UPDATE registrations SET next_push_at = $1 WHERE next_push_at > $1 AND last_error = ANY($2::text[])")
                .run([.integer(now), PostgresArray.text(reasons)]).rowsAffected
        }
    }
}

extension PostgresRow {
    /// The columns `claimDue` returns, checked.
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
