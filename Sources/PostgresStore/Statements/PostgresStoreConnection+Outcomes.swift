import LiveActivityDomain
import LiveActivityStore
import PostgresClient

/// A sweep's outcome batches on PostgreSQL (SPEC 5): one statement per kind of change for the
/// whole batch, keyed by target (registration token and kind), each only where the row still
/// carries this sweep's lease id (a target another host took since, the app refreshed or deleted
/// is left as it is); and what the batch adds to the figures.
extension PostgresStoreConnection {
    /// Each write ends the lease but keeps its id, so a later write of the same run (a failure,
    /// then its scope's hold) still reaches the row.
    func write(_ rows: [OutcomeRow]) throws -> OutcomeRow.Written {
        let lease = try leaseInForce()
        return try storeFaults {
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
            let removed = try delete(deleted.map { (rows[$0.0], $0.1) }, lease: lease)
            let removedKeys = Set(removed.map(\.key))
            for (index, _) in deleted where removedKeys.contains(Self.key(rows[index].key)) { results[index] = .deleted }
            // A 410 for a target registered again after APNs's timestamp keeps the row.
            for (index, _) in deleted where results[index] != .deleted {
                if case .deletedUnlessRenewed(_, let keep) = rows[index].change { kept.append((index, keep)) }
            }
            let deliveredKeys = try deliver(delivered.map { rows[$0] }, lease: lease)
            for index in delivered where deliveredKeys.contains(Self.key(rows[index].key)) { results[index] = .written }
            let keptKeys = try keep(kept.map { (rows[$0.0], $0.1) }, lease: lease)
            for (index, _) in kept where keptKeys.contains(Self.key(rows[index].key)) { results[index] = .written }
            let placed = try placeAttempts(attemptOnly.map { rows[$0] })
            for index in attemptOnly where placed.contains(Self.key(rows[index].key)) { results[index] = .written }
            // All of a row's attempts anew (a waiting ack marked one), where its write reached it,
            // with the unchanged acks in a row that ack's `changed` made.
            for (index, row) in rows.enumerated() where results[index] == .written {
                guard case .replace(let attempts) = row.attempts else { continue }
                try statement(
                    """
                    UPDATE push_targets SET attempts = ARRAY(SELECT decode(h, 'hex') FROM unnest($3::text[]) WITH ORDINALITY AS a(h, o) ORDER BY o),
                        unchanged_acks = coalesce($5, unchanged_acks), waiting_changed = NULL
                    WHERE registration_token = $1 AND push_kind = $2 AND app = $4
                    """
                ).run([
                    .text(row.key.registration.hex), .text(row.key.kind.name), PostgresArray.text(Self.entries(attempts)),
                    .text(row.key.app.rawValue), row.unchangedAcks.map { .integer(Int64($0)) } ?? .null,
                ])
            }
            return OutcomeRow.Written(results: results, deleted: removed.compactMap(\.counted))
        }
    }

    /// A target as the statements return it (`registration_token, push_kind` and `app` at
    /// `appColumn`), to match rows by.
    private static func key(_ key: TargetKey) -> String { key.registration.hex + " " + key.kind.name + " " + key.app.rawValue }

    private static func key(_ row: PostgresRow, appColumn: Int32 = 2) -> String {
        (row.text(0) ?? "") + " " + (row.text(1) ?? "") + " " + (row.text(appColumn) ?? "")
    }

    private static func tokens(_ rows: [OutcomeRow]) -> PostgresValue { PostgresArray.text(rows.map(\.key.registration.hex)) }

    private static func apps(_ rows: [OutcomeRow]) -> PostgresValue { PostgresArray.text(rows.map(\.key.app.rawValue)) }

    private static func kinds(_ rows: [OutcomeRow]) -> PostgresValue { PostgresArray.text(rows.map(\.key.kind.name)) }

    private static func clears(_ rows: [OutcomeRow]) -> PostgresValue {
        PostgresArray.text(rows.map { $0.clearsWaitingAck ? "true" : "false" })
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
                UPDATE push_targets r SET last_push_at = u.at, next_push_at = u.next, push_count = r.push_count + 1,
                    consecutive_failures = 0, last_error = NULL, attempts = \(Self.prepended(entry: "u.entry", kept: 8)),
                    waiting_ack_at = CASE WHEN u.clear THEN NULL ELSE r.waiting_ack_at END, lease_until = NULL
                FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::text[], $6::bool[], $9::text[])
                    AS u(token, kind, at, next, entry, clear, app)
                WHERE r.registration_token = u.token AND r.push_kind = u.kind AND r.app = u.app AND r.lease_id = $7
                RETURNING r.registration_token, r.push_kind, r.app
                """
            ).rows([
                Self.tokens(rows), Self.kinds(rows), PostgresArray.integers(at), PostgresArray.integers(next),
                PostgresArray.text(rows.map(Self.entry)), Self.clears(rows), .text(lease.id), .integer(Int64(PushAttempt.kept)),
                Self.apps(rows),
            ]) { Self.key($0) })
    }

    private func keep(_ kept: [(OutcomeRow, OutcomeRow.Change.Kept)], lease: SweepLease) throws(PostgresError) -> Set<String> {
        guard !kept.isEmpty else { return [] }
        let rows = kept.map(\.0)
        return Set(
            try statement(
                """
                UPDATE push_targets r SET consecutive_failures = r.consecutive_failures + u.added,
                    last_error = coalesce(u.reason, r.last_error),
                    next_push_at = u.next, attempts = \(Self.prepended(entry: "u.entry", kept: 10)),
                    waiting_ack_at = CASE WHEN u.clear THEN NULL ELSE r.waiting_ack_at END, lease_until = NULL,
                    guard_holds = r.guard_holds + u.holds
                FROM unnest(
                    $1::text[], $2::text[], $3::bigint[], $4::text[], $5::bigint[], $6::text[], $7::bool[], $8::bigint[],
                    $11::text[]) AS u(token, kind, added, reason, next, entry, clear, holds, app)
                WHERE r.registration_token = u.token AND r.push_kind = u.kind AND r.app = u.app AND r.lease_id = $9
                RETURNING r.registration_token, r.push_kind, r.app
                """
            ).rows([
                Self.tokens(rows), Self.kinds(rows), PostgresArray.integers(kept.map { Int64($0.1.failuresAdded) }),
                PostgresArray.text(kept.map(\.1.reason)), PostgresArray.integers(kept.map(\.1.nextPushAt)),
                PostgresArray.text(rows.map(Self.entry)), Self.clears(rows),
                PostgresArray.integers(kept.map { Int64($0.1.guardHoldsAdded) }), .text(lease.id),
                .integer(Int64(PushAttempt.kept)), Self.apps(rows),
            ]) { Self.key($0) })
    }

    /// The targets whose deletion is still this sweep's to write (the lease on the row the answer
    /// was about, locked first, and registered at or before the cutoff), each with its whole
    /// registration where it `deletesRegistration`: the keys of every target deleted.
    /// The targets deleted: each one's key (to match rows by) and how the counters count it.
    private func delete(_ rows: [(OutcomeRow, Int64)], lease: SweepLease) throws(PostgresError)
        -> [(key: String, counted: CountedTarget?)]
    {
        guard !rows.isEmpty else { return [] }
        return try statement(
            """
            WITH owned AS (
                SELECT o.registration_token, o.push_kind, o.app, u.cutoff, u.whole
                FROM push_targets o
                JOIN unnest($1::text[], $2::text[], $3::bigint[], $4::bool[], $6::text[]) AS u(token, kind, cutoff, whole, app)
                    ON o.registration_token = u.token AND o.push_kind = u.kind AND o.app = u.app
                WHERE o.lease_id = $5 AND o.registered_at <= u.cutoff
                FOR UPDATE OF o
            )
            DELETE FROM push_targets t USING owned
            WHERE t.registration_token = owned.registration_token AND t.app = owned.app
                AND (t.push_kind = owned.push_kind OR owned.whole) AND t.registered_at <= owned.cutoff
            RETURNING t.registration_token, t.push_kind, t.activity_type, t.environment, t.last_push_at IS NOT NULL, t.app,
                t.push_count
            """
        ).rows([
            Self.tokens(rows.map(\.0)), Self.kinds(rows.map(\.0)), PostgresArray.integers(rows.map(\.1)),
            PostgresArray.text(rows.map { $0.0.deletesRegistration ? "true" : "false" }), .text(lease.id),
            Self.apps(rows.map(\.0)),
        ]) { (Self.key($0, appColumn: 5), Self.counted($0, from: 1)) }
    }

    /// An answer whose row no batch writes: its attempt goes on the row whatever it holds now; a
    /// target already gone keeps nothing.
    private func placeAttempts(_ rows: [OutcomeRow]) throws(PostgresError) -> Set<String> {
        guard !rows.isEmpty else { return [] }
        return Set(
            try statement(
                """
                UPDATE push_targets r SET attempts = \(Self.prepended(entry: "u.entry", kept: 5)),
                    waiting_ack_at = CASE WHEN u.clear THEN NULL ELSE r.waiting_ack_at END
                FROM unnest($1::text[], $2::text[], $3::text[], $4::bool[], $6::text[]) AS u(token, kind, entry, clear, app)
                WHERE r.registration_token = u.token AND r.push_kind = u.kind AND r.app = u.app
                RETURNING r.registration_token, r.push_kind, r.app
                """
            ).rows([
                Self.tokens(rows), Self.kinds(rows), PostgresArray.text(rows.map(Self.entry)), Self.clears(rows),
                .integer(Int64(PushAttempt.kept)), Self.apps(rows),
            ]) { Self.key($0) })
    }

    func add(_ deliveries: [DeliveryCount]) throws {
        guard !deliveries.isEmpty else { return }
        try storeFaults {
            try statement(
                """
                INSERT INTO delivery_hours AS h (hour, activity_type, environment, push_kind, registrations, delivered, app)
                SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::text[])
                ON CONFLICT (hour, push_kind, activity_type, environment, app) DO UPDATE SET
                    registrations = h.registrations + excluded.registrations, delivered = h.delivered + excluded.delivered
                """
            ).run([
                PostgresArray.integers(deliveries.map(\.hour)), PostgresArray.text(deliveries.map(\.activityType.rawValue)),
                PostgresArray.text(deliveries.map(\.environment.rawValue)), PostgresArray.text(deliveries.map(\.kind.name)),
                PostgresArray.integers(deliveries.map(\.registrations)), PostgresArray.integers(deliveries.map(\.delivered)),
                PostgresArray.text(deliveries.map(\.app.rawValue)),
            ])
        }
    }

}
