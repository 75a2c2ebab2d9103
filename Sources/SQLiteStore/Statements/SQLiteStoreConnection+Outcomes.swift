import LiveActivityDomain
import LiveActivityStore
import SQLiteClient
import StoreSQL

/// A sweep's outcome batches on SQLite (SPEC 5): a statement per row, in key order, each written
/// only where the row's registration is still registered as the sweep read it.
extension SQLiteStoreConnection {
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
            return try update(row, setting: .delivered(at: at, next: next)) ? .written : .skipped
        case .kept(let kept):
            return try update(row, setting: .kept(kept)) ? .written : .skipped
        case .deleted(let cutoff):
            return try delete(row, registeredAtOrBefore: cutoff, into: &deleted) ? .deleted : .skipped
        case .deletedUnlessRenewed(let cutoff, let kept):
            if try delete(row, registeredAtOrBefore: cutoff, into: &deleted) { return .deleted }
            return try update(row, setting: .kept(kept)) ? .written : .skipped
        case .attemptOnly:
            // An answer whose row no batch writes (or a later one does): its attempt goes on the
            // row whatever it holds now; a target already gone keeps nothing.
            return try update(row, setting: .attemptOnly) ? .written : .skipped
        }
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

    // MARK: - The outcome update

    /// What an outcome update sets besides the attempts and the acks' columns.
    private enum Setting {
        /// Pushed: wake-ups + 1, failures reset, due again at `next`; where the row is as read.
        case delivered(at: Int64, next: Int64)
        /// Kept as read: failures and holds added, the reason, the next push; where the row is as read.
        case kept(OutcomeRow.Change.Kept)
        /// Nothing but the attempts, on the row whatever it holds now.
        case attemptOnly
    }

    /// One UPDATE of `row` with `setting`; its attempts as the row says (this answer put first by
    /// the SQL function, with no read of the row before; or all of them anew after a waiting ack
    /// was judged), and a waiting ack cleared when it was judged. Whether the row was there.
    private func update(_ row: OutcomeRow, setting: Setting) throws -> Bool {
        guard let shape = Self.shape(of: row, setting: setting) else { return false }
        let binds = Self.binds(of: row, setting: setting)
        // One statement per shape, found by its number, its binds listed straight from the row:
        // this runs once per pushed row, and building an `SQL` value for it each time (its pieces
        // of text, then the text to find it by) slowed a sweep of 100,000 due.
        try connection.statement("outcome update", shape: shape, binds: binds) { Self.sql(of: row, setting: setting) }
            .run(binds)
        return connection.changes > 0
    }

    /// The update's statement for `row`: its text, and its binds in the order `binds(of:setting:)` lists them.
    private static func sql(of row: OutcomeRow, setting: Setting) -> SQLiteSQL {
        var assignments: [SQLiteSQL] = []
        let condition: SQLiteSQL
        switch setting {
        case .delivered(let at, let next):
            assignments.append(
                """
                last_push_at = \(bind: at), next_push_at = \(bind: next), push_count = push_count + 1, \
                consecutive_failures = 0, last_error = NULL
                """)
            condition = stillAsRead(row)
        case .kept(let kept):
            let reason: PreparedStatement.Value = kept.reason.map { .text($0) } ?? .null
            assignments.append(
                """
                consecutive_failures = consecutive_failures + \(bind: Int64(kept.failuresAdded)), \
                last_error = coalesce(\(bind: reason), last_error), next_push_at = \(bind: kept.nextPushAt), \
                guard_holds = guard_holds + \(bind: Int64(kept.guardHoldsAdded))
                """)
            condition = stillAsRead(row)
        case .attemptOnly:
            condition = "registration_token = \(bind: row.key.registration.hex) AND push_kind = \(bind: row.key.kind.name)"
        }
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
        return """
            UPDATE push_targets SET \(SQL.joined(assignments, separator: ", ")) \
            WHERE \(condition) AND app = \(bind: row.key.app.rawValue)
            """
    }

    /// The row's target as the sweep read it (`RegisteredAtGuard`).
    private static func stillAsRead(_ row: OutcomeRow) -> SQLiteSQL {
        """
        registration_token = \(bind: row.key.registration.hex) AND push_kind = \(bind: row.key.kind.name) \
        AND \(row.registeredAtGuard.sql())
        """
    }

    /// The values `sql(of:setting:)` binds, in its order, listed without building its text.
    private static func binds(of row: OutcomeRow, setting: Setting) -> [PreparedStatement.Value] {
        var binds: [PreparedStatement.Value] = []
        binds.reserveCapacity(10)
        switch setting {
        case .delivered(let at, let next):
            binds.append(.integer(at))
            binds.append(.integer(next))
        case .kept(let kept):
            binds.append(.integer(Int64(kept.failuresAdded)))
            binds.append(kept.reason.map { .text($0) } ?? .null)
            binds.append(.integer(kept.nextPushAt))
            binds.append(.integer(Int64(kept.guardHoldsAdded)))
        case .attemptOnly: break
        }
        switch row.attempts {
        case .unchanged: break
        case .prepend(let attempt): binds.append(.blob(AttemptRing.entry(attempt)))
        case .replace(let all): binds.append(.blob(AttemptRing.encode(all)))
        }
        if let unchanged = row.unchangedAcks { binds.append(.integer(Int64(unchanged))) }
        binds.append(.text(row.key.registration.hex))
        binds.append(.text(row.key.kind.name))
        if case .attemptOnly = setting {} else { binds.append(.integer(row.registeredAtGuard.read)) }
        binds.append(.text(row.key.app.rawValue))
        return binds
    }

    /// Which of the update's texts `row` takes (nil: it would set nothing): what `setting` sets,
    /// how the attempts change, whether it clears a waiting ack and whether it writes the
    /// unchanged acks.
    private static func shape(of row: OutcomeRow, setting: Setting) -> Int? {
        let change: Int
        switch setting {
        case .delivered: change = 0
        case .kept: change = 1
        case .attemptOnly: change = 2
        }
        let attempts: Int
        switch row.attempts {
        case .unchanged: attempts = 0
        case .prepend: attempts = 1
        case .replace: attempts = 2
        }
        if change == 2, attempts == 0, !row.clearsWaitingAck, row.unchangedAcks == nil { return nil }
        return ((change * 3 + attempts) * 2 + (row.clearsWaitingAck ? 1 : 0)) * 2 + (row.unchangedAcks == nil ? 0 : 1)
    }
}
