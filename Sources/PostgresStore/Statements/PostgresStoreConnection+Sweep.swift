import LiveActivityDomain
import LiveActivityStore
import PostgresClient
import StoreSQL

/// A sweep's statements (SPEC 5) on PostgreSQL, where several hosts sweep the same database at the
/// same minute with no leader (SPEC 5, "Several hosts"): a sweep claims the targets it pushes
/// under the session's lease (this host, a random id, an end by the database's clock; set once
/// per sweep, `+SharedDatabase`) in one statement that commits before any push, writes each
/// outcome only where the row still carries its lease id (`+Outcomes`), and gives back what it
/// claimed and never wrote (`releaseClaims`). A lease stamped with this
/// host's name is this host's to take again: the sweep's lock says no earlier sweep of the host
/// still runs.
extension PostgresStoreConnection: SweepStatements {
    /// The SQL of a row no other live sweep holds: no lease in force, or one of this host's.
    private static func free(host: String) -> PostgresSQL {
        "(lease_until IS NULL OR lease_until < liveactivity_now_ms() OR lease_host = \(bind: host))"
    }

    /// Registrations are their wake targets; every target carries its registration's time.
    func countExpired(registeredAtOrBefore cutoff: Int64) throws -> Int {
        try storeFaults {
            Int(
                try scalarInt(
                    "SELECT count(*) FROM push_targets WHERE registered_at <= \(bind: cutoff) AND \(raw: PushKind.wake.sqlIs())"
                ) ?? 0)
        }
    }

    /// Idempotent: a host expiring the same minute as another counts only the rows it deleted.
    /// Grouped as the counters count them, in the statement: a sweep of a day's expiry returns a
    /// handful of rows, not one per target. Two hosts expiring the same minute each count only
    /// the rows their own DELETE took.
    func deleteExpired(registeredAtOrBefore cutoff: Int64) throws -> [CountedTarget: Int] {
        try storeFaults {
            let groups = try rows(
                """
                WITH gone AS (
                    DELETE FROM push_targets WHERE registered_at <= \(bind: cutoff)
                    RETURNING push_kind, activity_type, environment, last_push_at IS NOT NULL AS proven, app, push_count
                )
                SELECT push_kind, activity_type, environment, proven, app, sum(push_count)::bigint, count(*) FROM gone
                GROUP BY 1, 2, 3, 4, 5
                """
            ) { row in (Self.counted(row, from: 0), Int(row.int(6))) }
            var counts: [CountedTarget: Int] = [:]
            for case (let target?, let count) in groups { counts[target, default: 0] += count }
            return counts
        }
    }

    func dueCounts(atOrBefore cutoff: Int64, environments: [APNsEnvironment]) throws -> [PushScope: Int] {
        try storeFaults {
            let counts = try rows(
                """
                SELECT environment, push_kind, app, count(*) FROM push_targets
                WHERE next_push_at <= \(bind: cutoff) AND \(Self.filter(environments))
                GROUP BY environment, push_kind, app
                """
            ) { (PushScope(stored: $0), Int($0.int(3))) }
            return PushScope.tally(counts)
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
            let reads = try rows(
                """
                WITH due AS (
                    SELECT registration_token, push_kind, app FROM push_targets
                    WHERE next_push_at <= \(bind: cutoff) AND \(Self.filter(environments)) AND \(raw: PushKind.sqlKnown)
                        AND \(Self.free(host: lease.host)) AND lease_id IS DISTINCT FROM \(bind: lease.id)
                    \(DueOrder.orderBy()) LIMIT \(bind: Int64(limit))
                    FOR UPDATE SKIP LOCKED
                )
                UPDATE push_targets r SET lease_id = \(bind: lease.id), lease_host = \(bind: lease.host),
                    lease_until = liveactivity_now_ms() + \(bind: Int64(lease.seconds)) * 1000
                FROM due
                WHERE r.registration_token = due.registration_token AND r.push_kind = due.push_kind AND r.app = due.app
                RETURNING \(raw: TargetColumns.due(alias: "r"))
                """
            ) { row in
                DueRead(
                    position: DuePosition(stored: row),
                    target: Result { () throws(StoredValueError) in try DueTarget(stored: row) })
            }
            // UPDATE ... RETURNING has no order of its own: the due order, as the cursor expects.
            return reads.sorted { DueOrder.precedes($0.position, $1.position) }
        }
    }

    /// The environments a due query keeps, every one when all are (bound as NULL): a row of an
    /// environment this build does not know is then read (and refused as a value it cannot use),
    /// as on SQLite.
    private static func filter(_ environments: [APNsEnvironment]) -> PostgresSQL {
        let kept = Set(environments) == Set(APNsEnvironment.allCases) ? .null : PostgresArray.text(environments.map(\.rawValue))
        return "(\(bind: kept)::text[] IS NULL OR environment = ANY(\(bind: kept)::text[]))"
    }

    /// The targets a fault of `scope` stopped before the sweep reached them (`UnreachedTargets`)
    /// that no other live sweep holds.
    private static func unreached(
        _ scope: FaultScope, cutoff: Int64, start: Int64, lease: SweepLease
    ) -> PostgresSQL {
        let unreached = UnreachedTargets(scope: scope, dueAtOrBefore: cutoff, registeredAtOrBefore: start)
        return "\(unreached.sql()) AND \(free(host: lease.host))"
    }

    func unreachedGroups(
        in scope: FaultScope, dueAtOrBefore cutoff: Int64, registeredAtOrBefore start: Int64
    ) throws -> [IntervalGroup] {
        let lease = try leaseInForce()
        return try storeFaults {
            try rows(
                """
                SELECT DISTINCT push_kind, activity_type, requested_interval FROM push_targets
                WHERE \(Self.unreached(scope, cutoff: cutoff, start: start, lease: lease))
                """
            ) { IntervalGroup(stored: $0) }.compactMap { $0 }
        }
    }

    /// The reason is cut once, as SQLite stores it (`StoredValue.reason`).
    func holdUnreached(
        in scope: FaultScope, group: IntervalGroup, dueAtOrBefore cutoff: Int64, registeredAtOrBefore start: Int64,
        reason: String, nextPushAt: Int64
    ) throws -> Int {
        let lease = try leaseInForce()
        return try storeFaults {
            let interval: PostgresValue = group.requestedInterval.map { .integer(Int64($0)) } ?? .null
            return try run(
                """
                UPDATE push_targets SET last_error = \(bind: StoredValue.reason(reason)), next_push_at = \(bind: nextPushAt)
                WHERE \(Self.unreached(scope, cutoff: cutoff, start: start, lease: lease))
                    AND push_kind = \(bind: group.kind.name) AND activity_type = \(bind: group.activityType.rawValue)
                    AND requested_interval IS NOT DISTINCT FROM \(bind: interval)::bigint
                """
            ).rowsAffected
        }
    }

    func scopesEverDelivered() throws -> Set<PushScope> {
        try storeFaults {
            Set(
                try statement("SELECT environment, push_kind, app FROM delivered_scopes").rows { PushScope(stored: $0) }
                    .compactMap { $0 })
        }
    }

    func markEverDelivered(_ firsts: [PushScope: Int64]) throws {
        guard !firsts.isEmpty else { return }
        let pairs = firsts.sorted { PushScope.ordered($0.key, $1.key) }
        try storeFaults {
            try run(
                """
                INSERT INTO delivered_scopes (environment, push_kind, first_delivered_at, app)
                SELECT * FROM unnest(
                    \(bind: PostgresArray.text(pairs.map(\.key.environment.rawValue)))::text[],
                    \(bind: PostgresArray.text(pairs.map(\.key.kind.name)))::text[],
                    \(bind: PostgresArray.integers(pairs.map(\.value)))::bigint[],
                    \(bind: PostgresArray.text(pairs.map(\.key.app.rawValue)))::text[])
                ON CONFLICT (environment, push_kind, app) DO NOTHING
                """)
        }
    }

    /// From the partial index of rows with an ack waiting; locked until the batch commits.
    func waitingAcks(among keys: [RegistrationKey]) throws -> [WaitingAck] {
        guard !keys.isEmpty else { return [] }
        return try storeFaults {
            try rows(
                """
                SELECT \(raw: WaitingAck.columns(alias: "t")), \(raw: joinedAttempts(alias: "t"))
                FROM push_targets t
                    JOIN unnest(\(bind: PostgresArray.text(keys.map(\.token.hex)))::text[], \
                \(bind: PostgresArray.text(keys.map(\.app.rawValue)))::text[]) AS u(token, app)
                    ON t.registration_token = u.token AND t.app = u.app
                WHERE t.waiting_ack_at IS NOT NULL AND \(raw: PushKind.wake.sqlIs(alias: "t"))
                ORDER BY t.registration_token, t.app FOR UPDATE OF t
                """
            ) { row in
                // A row this build cannot read keeps its ack waiting: the sweep skips that row anyway.
                try? WaitingAck(stored: row)
            }.compactMap { $0 }
        }
    }

    func exchangeSettingsFingerprint(_ fingerprint: String, host: String) throws -> String? {
        try transaction {
            let kept =
                try firstRow("SELECT fingerprint FROM sweep_settings WHERE host = \(bind: host) FOR UPDATE") { $0.text(0) }
                ?? nil
            try run(
                """
                INSERT INTO sweep_settings (host, fingerprint) VALUES (\(bind: host), \(bind: fingerprint))
                ON CONFLICT (host) DO UPDATE SET fingerprint = excluded.fingerprint
                """)
            return kept
        }
    }

    func releaseHeld(reasons: [String], now: Int64) throws -> Int {
        guard !reasons.isEmpty else { return 0 }
        return try storeFaults {
            try run(
                """
                UPDATE push_targets SET next_push_at = \(bind: now)
                WHERE next_push_at > \(bind: now) AND last_error = ANY(\(bind: PostgresArray.text(reasons))::text[])
                """
            ).rowsAffected
        }
    }
}
