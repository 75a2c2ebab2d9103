import LiveActivityDomain
import LiveActivityStore
import PostgresClient

/// A sweep's statements (SPEC 5) on PostgreSQL, where several hosts sweep the same database at the
/// same minute with no leader (SPEC 5, "Several hosts"): a sweep claims the targets it pushes
/// under the session's lease (this host, a random id, an end by the database's clock; set once
/// per sweep, `+SharedDatabase`) in one statement that commits before any push, writes each
/// outcome only where the row still carries its lease id (`+Outcomes`), and gives back what it
/// claimed and never wrote (`releaseClaims`). A lease stamped with this
/// host's name is this host's to take again: the sweep's lock says no earlier sweep of the host
/// still runs.
extension PostgresStoreConnection: SweepStatements {
    /// The SQL of a row no other live sweep holds: no lease in force, or one of this host's
    /// (its name bound as parameter `$n`).
    private static func free(host parameter: Int) -> String {
        "(lease_until IS NULL OR lease_until < liveactivity_now_ms() OR lease_host = $\(parameter))"
    }

    /// The SQL that keeps the kinds this build pushes: a kind a newer build stored is left as it is.
    static let knownKinds = "push_kind IN (" + PushKind.all.map { "'\($0.name)'" }.joined(separator: ", ") + ")"

    /// Registrations are their wake targets; every target carries its registration's time.
    func countExpired(registeredAtOrBefore cutoff: Int64) throws -> Int {
        try storeFaults {
            Int(
                try statement("SELECT count(*) FROM push_targets WHERE registered_at <= $1 AND push_kind = 'wake'")
                    .scalarInt([.integer(cutoff)]) ?? 0)
        }
    }

    /// Idempotent: a host expiring the same minute as another counts only the rows it deleted.
    /// Grouped as the counters count them, in the statement: a sweep of a day's expiry returns a
    /// handful of rows, not one per target. Two hosts expiring the same minute each count only
    /// the rows their own DELETE took.
    func deleteExpired(registeredAtOrBefore cutoff: Int64) throws -> [CountedTarget: Int] {
        try storeFaults {
            let groups = try statement(
                """
                WITH gone AS (
                    DELETE FROM push_targets WHERE registered_at <= $1
                    RETURNING push_kind, activity_type, environment, last_push_at IS NOT NULL AS proven, app, push_count
                )
                SELECT push_kind, activity_type, environment, proven, app, sum(push_count)::bigint, count(*) FROM gone
                GROUP BY 1, 2, 3, 4, 5
                """
            ).rows([.integer(cutoff)]) { row in (Self.counted(row, from: 0), Int(row.int(6))) }
            var counts: [CountedTarget: Int] = [:]
            for case (let target?, let count) in groups { counts[target, default: 0] += count }
            return counts
        }
    }

    func dueCounts(atOrBefore cutoff: Int64, environments: [APNsEnvironment]) throws -> [PushScope: Int] {
        try storeFaults {
            let counts = try statement(
                """
                SELECT environment, push_kind, app, count(*) FROM push_targets
                WHERE next_push_at <= $1 AND ($2::text[] IS NULL OR environment = ANY($2::text[]))
                GROUP BY environment, push_kind, app
                """
            ).rows([.integer(cutoff), Self.filter(environments)]) { row in
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

    /// One statement claims a page and commits before any push: the CTE locks the targets it
    /// picks (`FOR UPDATE SKIP LOCKED`: another host's claim in progress is passed over, not
    /// waited for) and the UPDATE stamps exactly those (a plain subquery with LIMIT may update
    /// more rows than its limit). A target this sweep already claimed keeps its lease id and is
    /// not claimed twice, so the page goes on without `position`.
    func claimDue(
        atOrBefore cutoff: Int64, environments: [APNsEnvironment], after position: DuePosition?, limit: Int
    ) throws -> [DueRead] {
        let lease = try leaseInForce()
        return try storeFaults {
            let reads = try statement(
                """
                WITH due AS (
                    SELECT registration_token, push_kind, app FROM push_targets
                    WHERE next_push_at <= $1 AND ($2::text[] IS NULL OR environment = ANY($2::text[])) AND \(Self.knownKinds)
                        AND \(Self.free(host: 4)) AND lease_id IS DISTINCT FROM $3
                    ORDER BY next_push_at, registration_token, push_kind, app LIMIT $5
                    FOR UPDATE SKIP LOCKED
                )
                UPDATE push_targets r SET lease_id = $3, lease_host = $4, lease_until = liveactivity_now_ms() + $6 * 1000
                FROM due
                WHERE r.registration_token = due.registration_token AND r.push_kind = due.push_kind AND r.app = due.app
                RETURNING \(TargetColumns.due(alias: "r"))
                """
            ).rows([
                .integer(cutoff), Self.filter(environments), .text(lease.id), .text(lease.host),
                .integer(Int64(limit)), .integer(Int64(lease.seconds)),
            ]) { row in
                DueRead(
                    position: DuePosition(stored: row),
                    target: Result { () throws(StoredValueError) in try DueTarget(stored: row) })
            }
            // UPDATE ... RETURNING has no order of its own: the due order, as the cursor expects.
            return reads.sorted { $0.position < $1.position }
        }
    }

    /// The environments a due query keeps, NULL for all of them: a row of an environment this
    /// build does not know is then read (and refused as a value it cannot use), as on SQLite.
    private static func filter(_ environments: [APNsEnvironment]) -> PostgresValue {
        Set(environments) == Set(APNsEnvironment.allCases) ? .null : PostgresArray.text(environments.map(\.rawValue))
    }

    /// The targets of a scope (`$1` its environment, `$4` its kind or NULL for every kind) due at
    /// `$2`, registered at or before `$3` and not answered 200 since, and no other live sweep's
    /// (`$5` this host): what a fault stopped before the sweep reached them.
    private static let unreached = """
        next_push_at <= $2 AND environment = $1 AND registered_at <= $3 AND (last_push_at IS NULL OR last_push_at < $3)
            AND ($4::text IS NULL OR push_kind = $4::text) AND \(free(host: 5)) AND app = $6
        """

    private static func scopeValues(
        _ scope: FaultScope, cutoff: Int64, start: Int64, lease: SweepLease
    ) -> [PostgresValue] {
        [
            .text(scope.environment.rawValue), .integer(cutoff), .integer(start), scope.kind.map { .text($0.name) } ?? .null,
            .text(lease.host), .text(scope.app.rawValue),
        ]
    }

    func unreachedGroups(
        in scope: FaultScope, dueAtOrBefore cutoff: Int64, registeredAtOrBefore start: Int64
    ) throws -> [IntervalGroup] {
        let lease = try leaseInForce()
        return try storeFaults {
            try statement(
                "SELECT DISTINCT push_kind, activity_type, requested_interval FROM push_targets WHERE \(Self.unreached)"
            ).rows(Self.scopeValues(scope, cutoff: cutoff, start: start, lease: lease)) { row in
                Self.group(kind: row.text(0), type: row.text(1), requested: row.optionalInt(2))
            }.compactMap { $0 }
        }
    }

    /// The reason is cut once, as SQLite stores it (`StoredValue.reason`).
    func holdUnreached(
        in scope: FaultScope, group: IntervalGroup, dueAtOrBefore cutoff: Int64, registeredAtOrBefore start: Int64,
        reason: String, nextPushAt: Int64
    ) throws -> Int {
        let lease = try leaseInForce()
        return try storeFaults {
            try statement(
                """
                UPDATE push_targets SET last_error = $7, next_push_at = $8
                WHERE \(Self.unreached) AND push_kind = $9 AND activity_type = $10
                    AND requested_interval IS NOT DISTINCT FROM $11::bigint
                """
            ).run(
                Self.scopeValues(scope, cutoff: cutoff, start: start, lease: lease) + [
                    .text(StoredValue.reason(reason)), .integer(nextPushAt), .text(group.kind.name),
                    .text(group.activityType.rawValue), group.requestedInterval.map { .integer(Int64($0)) } ?? .null,
                ]
            ).rowsAffected
        }
    }

    /// A group read back; nil for a kind or type this build does not know, or an interval out of range.
    /// (Not `try?` on the interval: it flattens "none asked" into "out of range".)
    static func group(kind: String?, type: String?, requested: Int64?) -> IntervalGroup? {
        guard let kind = kind.flatMap(PushKind.init(name:)), let type = type.flatMap(ActivityType.init(rawValue:)) else {
            return nil
        }
        let interval: Int?
        do { interval = try StoredValue.requestedInterval(requested) } catch { return nil }
        return IntervalGroup(kind: kind, activityType: type, requestedInterval: interval)
    }

    func scopesEverDelivered() throws -> Set<PushScope> {
        try storeFaults {
            let rows = try statement("SELECT environment, push_kind, app FROM delivered_scopes").rows {
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
        guard !firsts.isEmpty else { return }
        let pairs = firsts.sorted { PushScope.ordered($0.key, $1.key) }
        try storeFaults {
            try statement(
                """
                INSERT INTO delivered_scopes (environment, push_kind, first_delivered_at, app)
                SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[])
                ON CONFLICT (environment, push_kind, app) DO NOTHING
                """
            ).run([
                PostgresArray.text(pairs.map(\.key.environment.rawValue)), PostgresArray.text(pairs.map(\.key.kind.name)),
                PostgresArray.integers(pairs.map(\.value)), PostgresArray.text(pairs.map(\.key.app.rawValue)),
            ])
        }
    }

    /// From the partial index of rows with an ack waiting; locked until the batch commits.
    func waitingAcks(among keys: [RegistrationKey]) throws -> [WaitingAck] {
        guard !keys.isEmpty else { return [] }
        return try storeFaults {
            try statement(
                """
                SELECT \(WaitingAck.columns(alias: "t")), \(joinedAttempts(alias: "t"))
                FROM push_targets t JOIN unnest($1::text[], $2::text[]) AS u(token, app)
                    ON t.registration_token = u.token AND t.app = u.app
                WHERE t.waiting_ack_at IS NOT NULL AND t.push_kind = 'wake'
                ORDER BY t.registration_token, t.app FOR UPDATE OF t
                """
            ).rows(Self.columns(keys)) { row in
                // A row this build cannot read keeps its ack waiting: the sweep skips that row anyway.
                try? WaitingAck(stored: row)
            }.compactMap { $0 }
        }
    }

    /// The run, its counts per kind, reasons and faults, and what they add to the lifetime
    /// totals (`RunRecord`), in one transaction; then what `retention` says has aged out pruned
    /// (idempotent: several hosts may prune the same minute).
    func record(_ summary: SweepSummary, host: String, retention: Retention) throws {
        let record = RunRecord(summary)
        try transaction {
            let runID =
                try statement(
                    """
                    INSERT INTO sweep_runs (started_at, duration_ms, expired, outcome, host) VALUES ($1, $2, $3, $4, $5)
                    RETURNING id
                    """
                ).scalarInt([
                    .integer(record.startedAt), .integer(record.durationMilliseconds), .integer(record.expired),
                    .text(record.outcome), .text(host),
                ]) ?? 0
            try statement("UPDATE sweep_totals SET runs = runs + 1, expired = expired + $1 WHERE id = 1").run([
                .integer(record.expired)
            ])
            try recordCounts(record.kinds, run: runID, at: record.startedAt)
            try recordReasons(record.reasons, run: runID)
            try recordFaults(record.faults, run: runID, at: record.startedAt)
            try recordWithheld(record.withheld, run: runID, at: record.startedAt)
            try prune(retention)
        }
    }

    private func recordCounts(_ kinds: [RunRecord.KindCounts], run: Int64, at startedAt: Int64) throws(PostgresError) {
        let column = { (count: KeyPath<RunRecord.KindCounts, Int64>) in PostgresArray.integers(kinds.map { $0[keyPath: count] }) }
        try statement(
            """
            INSERT INTO sweep_run_kinds (started_at, run_id, push_kind, active, sent, skipped, failed, removed, held, app)
            SELECT $10::bigint, $1::bigint, *
            FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::text[])
            """
        ).run([
            .integer(run), PostgresArray.text(kinds.map(\.kind.name)), column(\.active), column(\.sent), column(\.skipped),
            column(\.failed), column(\.removed), column(\.held), PostgresArray.text(kinds.map(\.app.rawValue)),
            .integer(startedAt),
        ])
        try statement(
            """
            INSERT INTO sweep_kind_totals AS t (push_kind, sent, failed, removed, app)
            SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[], $5::text[])
            ON CONFLICT (push_kind, app) DO UPDATE SET sent = t.sent + excluded.sent, failed = t.failed + excluded.failed,
                removed = t.removed + excluded.removed
            """
        ).run([
            PostgresArray.text(kinds.map(\.kind.name)), column(\.sent), column(\.failed), column(\.removed),
            PostgresArray.text(kinds.map(\.app.rawValue)),
        ])
    }

    private func recordReasons(_ reasons: [RunRecord.Reason], run: Int64) throws(PostgresError) {
        guard !reasons.isEmpty else { return }
        let columns = [
            PostgresArray.text(reasons.map(\.category.rawValue)), PostgresArray.text(reasons.map(\.kind.name)),
            PostgresArray.text(reasons.map(\.reason)), PostgresArray.integers(reasons.map(\.count)),
        ]
        try statement(
            """
            INSERT INTO sweep_reasons (run_id, kind, push_kind, reason, count)
            SELECT $1::bigint, * FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[])
            """
        ).run([.integer(run)] + columns)
        try statement(
            """
            INSERT INTO sweep_reason_totals AS t (kind, push_kind, reason, count)
            SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[])
            ON CONFLICT (kind, push_kind, reason) DO UPDATE SET count = t.count + excluded.count
            """
        ).run(columns)
    }

    private func recordFaults(_ faults: [RunRecord.Fault], run: Int64, at startedAt: Int64) throws(PostgresError) {
        guard !faults.isEmpty else { return }
        let columns = [
            PostgresArray.text(faults.map(\.environment)), PostgresArray.text(faults.map(\.pushKind)),
            PostgresArray.text(faults.map(\.kind)), PostgresArray.text(faults.map(\.reason)),
            PostgresArray.integers(faults.map(\.pushes)), PostgresArray.text(faults.map(\.app)),
        ]
        try statement(
            """
            INSERT INTO sweep_faults (run_id, environment, push_kind, kind, reason, pushes, app)
            SELECT $1::bigint, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[])
            """
        ).run([.integer(run)] + columns)
        try statement(
            """
            INSERT INTO sweep_fault_totals AS t (environment, push_kind, kind, reason, runs, pushes, last_at, app)
            SELECT e, p, k, r, 1, n, $7::bigint, a
            FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[]) AS u(e, p, k, r, n, a)
            ON CONFLICT (environment, push_kind, kind, reason, app) DO UPDATE SET runs = t.runs + 1,
                pushes = t.pushes + excluded.pushes, last_at = greatest(t.last_at, excluded.last_at)
            """
        ).run(columns + [.integer(startedAt)])
    }

    private func recordWithheld(_ withheld: [WithheldWakes], run: Int64, at startedAt: Int64) throws(PostgresError) {
        guard !withheld.isEmpty else { return }
        let columns = [
            PostgresArray.text(withheld.map(\.group.app.rawValue)),
            PostgresArray.text(withheld.map(\.group.activityType.rawValue)),
            PostgresArray.text(withheld.map(\.group.environment.rawValue)),
            PostgresArray.text(withheld.map(\.group.reason.rawValue)),
            PostgresArray.integers(withheld.map(\.count)),
        ]
        try statement(
            """
            INSERT INTO sweep_run_withheld (started_at, run_id, app, activity_type, environment, reason, count)
            SELECT $6::bigint, $7::bigint, * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[])
            """
        ).run(columns + [.integer(startedAt), .integer(run)])
        try statement(
            """
            INSERT INTO sweep_withheld_totals AS t (app, activity_type, environment, reason, count)
            SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[])
            ON CONFLICT (app, activity_type, environment, reason) DO UPDATE SET count = t.count + excluded.count
            """
        ).run(columns)
    }

    private func prune(_ retention: Retention) throws(PostgresError) {
        let old = PostgresValue.integer(retention.runsBefore)
        try statement("DELETE FROM sweep_run_kinds WHERE started_at < $1").run([old])
        try statement("DELETE FROM sweep_run_withheld WHERE started_at < $1").run([old])
        for table in ["sweep_reasons", "sweep_faults"] {
            try statement("DELETE FROM \(table) WHERE run_id IN (SELECT id FROM sweep_runs WHERE started_at < $1)").run([old])
        }
        try statement("DELETE FROM sweep_runs WHERE started_at < $1").run([old])
        try statement("DELETE FROM delivery_hours WHERE hour < $1").run([.integer(retention.hoursBefore)])
        try statement("DELETE FROM ack_hours WHERE hour < $1").run([.integer(retention.hoursBefore)])
    }

    func exchangeSettingsFingerprint(_ fingerprint: String, host: String) throws -> String? {
        try transaction {
            let kept =
                try statement("SELECT fingerprint FROM sweep_settings WHERE host = $1 FOR UPDATE").firstRow([.text(host)]) {
                    $0.text(0)
                } ?? nil
            try statement(
                """
                INSERT INTO sweep_settings (host, fingerprint) VALUES ($1, $2)
                ON CONFLICT (host) DO UPDATE SET fingerprint = excluded.fingerprint
                """
            ).run([.text(host), .text(fingerprint)])
            return kept
        }
    }

    func releaseHeld(reasons: [String], now: Int64) throws -> Int {
        guard !reasons.isEmpty else { return 0 }
        return try storeFaults {
            try statement("UPDATE push_targets SET next_push_at = $1 WHERE next_push_at > $1 AND last_error = ANY($2::text[])")
                .run([.integer(now), PostgresArray.text(reasons)]).rowsAffected
        }
    }
}
