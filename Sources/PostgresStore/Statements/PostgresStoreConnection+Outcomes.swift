import LiveActivityDomain
import LiveActivityStore
import PostgresClient
import StoreSQL

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
                guard case .replace(let attempts, let unchangedAcks) = row.attempts else { continue }
                try run(Self.attemptsReplaced, (row.key, attempts, unchangedAcks))
            }
            return OutcomeRow.Written(results: results, deleted: removed.compactMap(\.counted))
        }
    }

    /// A row's attempts anew and, where its ack said whether the data changed, its unchanged
    /// acks: one statement per such row (a batch has few), its text built once.
    private static let attemptsReplaced = PostgresShape<(key: TargetKey, attempts: [PushAttempt], unchangedAcks: Int?)>(
        "outcome: attempts replaced",
        """
        UPDATE push_targets SET attempts = \(attemptsSQL { $0.attempts }),
            unchanged_acks = coalesce(\(bind: { $0.unchangedAcks.map { .integer(Int64($0)) } ?? .null }), unchanged_acks),
            waiting_changed = NULL
        WHERE registration_token = \(bind: { .text($0.key.registration.hex) }) AND push_kind = \(bind: { .text($0.key.kind.name) })
            AND app = \(bind: { .text($0.key.app.rawValue) })
        """)

    /// A target as the statements return it (`registration_token, push_kind` and `app` at
    /// `appColumn`), to match rows by.
    private static func key(_ key: TargetKey) -> String { key.registration.hex + " " + key.kind.name + " " + key.app.rawValue }

    private static func key(_ row: PostgresRow, appColumn: Int32 = 2) -> String {
        (row.text(0) ?? "") + " " + (row.text(1) ?? "") + " " + (row.text(appColumn) ?? "")
    }

    private static func tokens(_ rows: [OutcomeRow]) -> UnnestColumn { .text(rows.map(\.key.registration.hex)) }

    private static func apps(_ rows: [OutcomeRow]) -> UnnestColumn { .text(rows.map(\.key.app.rawValue)) }

    private static func kinds(_ rows: [OutcomeRow]) -> UnnestColumn { .text(rows.map(\.key.kind.name)) }

    private static func clears(_ rows: [OutcomeRow]) -> UnnestColumn { .bools(rows.map(\.clearsWaitingAck)) }

    /// The entry an answer puts first (hex), nil for none or for a row whose attempts are replaced after.
    private static func entry(_ row: OutcomeRow) -> String? {
        guard case .prepend(let attempt) = row.attempts else { return nil }
        return PostgresArray.hex(AttemptRing.entry(attempt))
    }

    /// The attempts with `u.entry` put first, the oldest beyond the kept number dropped.
    private static let prepended: PostgresSQL = """
        CASE WHEN u.entry IS NULL THEN r.attempts \
        ELSE (ARRAY[decode(u.entry, 'hex')] || r.attempts)[1:\(bind: Int64(PushAttempt.kept))] END
        """

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
            try self.rows(
                """
                UPDATE push_targets r SET last_push_at = u.at, next_push_at = u.next, push_count = r.push_count + 1,
                    consecutive_failures = 0, last_error = NULL, attempts = \(Self.prepended),
                    waiting_ack_at = CASE WHEN u.clear THEN NULL ELSE r.waiting_ack_at END, lease_until = NULL
                FROM \(.unnest([
                    Self.tokens(rows), Self.kinds(rows), .integers(at), .integers(next), .text(rows.map(Self.entry)),
                    Self.clears(rows), Self.apps(rows),
                ])) AS u(token, kind, at, next, entry, clear, app)
                WHERE r.registration_token = u.token AND r.push_kind = u.kind AND r.app = u.app AND r.lease_id = \(bind: lease.id)
                RETURNING r.registration_token, r.push_kind, r.app
                """
            ) { Self.key($0) })
    }

    private func keep(_ kept: [(OutcomeRow, OutcomeRow.Change.Kept)], lease: SweepLease) throws(PostgresError) -> Set<String> {
        guard !kept.isEmpty else { return [] }
        let rows = kept.map(\.0)
        return Set(
            try self.rows(
                """
                UPDATE push_targets r SET consecutive_failures = r.consecutive_failures + u.added,
                    last_error = coalesce(u.reason, r.last_error),
                    next_push_at = u.next, attempts = \(Self.prepended),
                    waiting_ack_at = CASE WHEN u.clear THEN NULL ELSE r.waiting_ack_at END, lease_until = NULL,
                    guard_holds = r.guard_holds + u.holds
                FROM \(.unnest([
                    Self.tokens(rows), Self.kinds(rows), .integers(kept.map { Int64($0.1.failuresAdded) }),
                    .text(kept.map(\.1.reason)), .integers(kept.map(\.1.nextPushAt)), .text(rows.map(Self.entry)),
                    Self.clears(rows), .integers(kept.map { Int64($0.1.guardHoldsAdded) }), Self.apps(rows),
                ])) AS u(token, kind, added, reason, next, entry, clear, holds, app)
                WHERE r.registration_token = u.token AND r.push_kind = u.kind AND r.app = u.app AND r.lease_id = \(bind: lease.id)
                RETURNING r.registration_token, r.push_kind, r.app
                """
            ) { Self.key($0) })
    }

    /// The targets whose deletion is still this sweep's to write (the lease on the row the answer
    /// was about, locked first, and registered at or before the cutoff), each with its whole
    /// registration where it `deletesRegistration`: the keys of every target deleted.
    /// The targets deleted: each one's key (to match rows by) and how the counters count it.
    private func delete(_ rows: [(OutcomeRow, Int64)], lease: SweepLease) throws(PostgresError)
        -> [(key: String, counted: CountedTarget?)]
    {
        guard !rows.isEmpty else { return [] }
        return try self.rows(
            """
            WITH owned AS (
                SELECT o.registration_token, o.push_kind, o.app, u.cutoff, u.whole
                FROM push_targets o
                JOIN \(.unnest([
                    Self.tokens(rows.map(\.0)), Self.kinds(rows.map(\.0)), .integers(rows.map(\.1)),
                    .bools(rows.map(\.0.deletesRegistration)), Self.apps(rows.map(\.0)),
                ])) AS u(token, kind, cutoff, whole, app)
                    ON o.registration_token = u.token AND o.push_kind = u.kind AND o.app = u.app
                WHERE o.lease_id = \(bind: lease.id) AND o.registered_at <= u.cutoff
                FOR UPDATE OF o
            )
            DELETE FROM push_targets t USING owned
            WHERE t.registration_token = owned.registration_token AND t.app = owned.app
                AND (t.push_kind = owned.push_kind OR owned.whole) AND t.registered_at <= owned.cutoff
            RETURNING t.registration_token, t.push_kind, t.activity_type, t.environment, t.last_push_at IS NOT NULL, t.app,
                t.push_count
            """
        ) { (Self.key($0, appColumn: 5), Self.counted($0, from: 1)) }
    }

    /// An answer whose row no batch writes: its attempt goes on the row whatever it holds now; a
    /// target already gone keeps nothing.
    private func placeAttempts(_ rows: [OutcomeRow]) throws(PostgresError) -> Set<String> {
        guard !rows.isEmpty else { return [] }
        return Set(
            try self.rows(
                """
                UPDATE push_targets r SET attempts = \(Self.prepended),
                    waiting_ack_at = CASE WHEN u.clear THEN NULL ELSE r.waiting_ack_at END
                FROM \(.unnest([Self.tokens(rows), Self.kinds(rows), .text(rows.map(Self.entry)), Self.clears(rows), Self.apps(rows)]))
                    AS u(token, kind, entry, clear, app)
                WHERE r.registration_token = u.token AND r.push_kind = u.kind AND r.app = u.app
                RETURNING r.registration_token, r.push_kind, r.app
                """
            ) { Self.key($0) })
    }

    func add(_ deliveries: [DeliveryCount]) throws {
        guard !deliveries.isEmpty else { return }
        try storeFaults {
            try run(
                """
                INSERT INTO delivery_hours AS h (hour, activity_type, environment, push_kind, registrations, delivered, app)
                SELECT * FROM \(.unnest([
                    .integers(deliveries.map(\.hour)), .text(deliveries.map(\.activityType.rawValue)),
                    .text(deliveries.map(\.environment.rawValue)), .text(deliveries.map(\.kind.name)),
                    .integers(deliveries.map(\.registrations)), .integers(deliveries.map(\.delivered)),
                    .text(deliveries.map(\.app.rawValue)),
                ]))
                ON CONFLICT (hour, push_kind, activity_type, environment, app) DO UPDATE SET
                    registrations = h.registrations + excluded.registrations, delivered = h.delivered + excluded.delivered
                """)
        }
    }

}
