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
    enum Setting {
        /// Pushed: wake-ups + 1, failures reset, due again at `next`; where the row is as read.
        case delivered(at: Int64, next: Int64)
        /// Kept as read: failures and holds added, the reason, the next push; where the row is as read.
        case kept(OutcomeRow.Change.Kept)
        /// Nothing but the attempts, on the row whatever it holds now.
        case attemptOnly

        /// A delivered shape's values.
        var delivered: (at: Int64, next: Int64) {
            guard case .delivered(let at, let next) = self else { preconditionFailure("a delivered shape, a delivered row") }
            return (at, next)
        }

        /// A kept shape's values.
        var kept: OutcomeRow.Change.Kept {
            guard case .kept(let kept) = self else { preconditionFailure("a kept shape, a kept row") }
            return kept
        }
    }

    /// What one run of an outcome update binds from.
    typealias Update = (row: OutcomeRow, setting: Setting)

    /// One UPDATE of `row` with `setting`; its attempts as the row says (this answer put first by
    /// the SQL function, with no read of the row before; or all of them anew after a waiting ack
    /// was judged), and a waiting ack cleared when it was judged. Whether the row was there.
    private func update(_ row: OutcomeRow, setting: Setting) throws -> Bool {
        let shape = UpdateShape(of: row, setting: setting)
        guard !shape.setsNothing else { return false }
        // One statement per shape, found by its number, its binds read from the row: this runs
        // once per pushed row, and building an `SQL` value for it each time (its pieces of text,
        // then the text to find it by) slowed a sweep of 100,000 due.
        try connection.run(Self.updates[shape.number], (row, setting))
        return connection.changes > 0
    }

    /// Which of the update's texts a row takes: what its setting sets, how its attempts change
    /// (replaced ones with the unchanged acks or without) and whether it clears a waiting ack.
    /// Its `number` finds its statement.
    struct UpdateShape {
        enum Change: Int, CaseIterable { case delivered, kept, attemptOnly }
        enum Attempts: Int, CaseIterable {
            case unchanged, prepend, replace
            /// Replaced, with the unchanged acks the judged ack's `changed` made.
            case replaceWithUnchangedAcks
        }

        var change: Change
        var attempts: Attempts
        var clearsWaitingAck: Bool

        /// Every shape, in the order of their numbers.
        static let all = Change.allCases.flatMap { change in
            Attempts.allCases.flatMap { attempts in
                [false, true].map { clears in UpdateShape(change: change, attempts: attempts, clearsWaitingAck: clears) }
            }
        }

        init(change: Change, attempts: Attempts, clearsWaitingAck: Bool) {
            self.change = change
            self.attempts = attempts
            self.clearsWaitingAck = clearsWaitingAck
        }

        init(of row: OutcomeRow, setting: Setting) {
            switch setting {
            case .delivered: change = .delivered
            case .kept: change = .kept
            case .attemptOnly: change = .attemptOnly
            }
            switch row.attempts {
            case .unchanged: attempts = .unchanged
            case .prepend: attempts = .prepend
            case .replace(_, unchangedAcks: nil): attempts = .replace
            case .replace: attempts = .replaceWithUnchangedAcks
            }
            clearsWaitingAck = row.clearsWaitingAck
        }

        var number: Int { (change.rawValue * Attempts.allCases.count + attempts.rawValue) * 2 + (clearsWaitingAck ? 1 : 0) }

        /// All the attempts written anew.
        var replacesAttempts: Bool { attempts == .replace || attempts == .replaceWithUnchangedAcks }

        /// The judged ack's unchanged acks written with them.
        var writesUnchangedAcks: Bool { attempts == .replaceWithUnchangedAcks }

        /// An update that would set nothing: none is run.
        var setsNothing: Bool { change == .attemptOnly && attempts == .unchanged && !clearsWaitingAck }
    }

    /// Every shape's statement, in the order of their numbers (internal: its test prepares each).
    static let updates = UpdateShape.all.map { SQLiteShape<Update>("outcome update", number: $0.number, sql(of: $0)) }

    /// The update's statement of `shape`, its binds read from the row and setting it runs with.
    private static func sql(of shape: UpdateShape) -> SQLiteInputSQL<Update> {
        var assignments: [SQLiteInputSQL<Update>] = []
        let condition: SQLiteInputSQL<Update>
        switch shape.change {
        case .delivered:
            assignments.append(
                """
                last_push_at = \(bind: { .integer($0.setting.delivered.at) }), \
                next_push_at = \(bind: { .integer($0.setting.delivered.next) }), push_count = push_count + 1, \
                consecutive_failures = 0, last_error = NULL
                """)
            condition = stillAsRead
        case .kept:
            assignments.append(
                """
                consecutive_failures = consecutive_failures + \(bind: { .integer(Int64($0.setting.kept.failuresAdded)) }), \
                last_error = coalesce(\(bind: { $0.setting.kept.reason.map { .text($0) } ?? .null }), last_error), \
                next_push_at = \(bind: { .integer($0.setting.kept.nextPushAt) }), \
                guard_holds = guard_holds + \(bind: { .integer(Int64($0.setting.kept.guardHoldsAdded)) })
                """)
            condition = stillAsRead
        case .attemptOnly:
            condition = """
                registration_token = \(bind: { .text($0.row.key.registration.hex) }) \
                AND push_kind = \(bind: { .text($0.row.key.kind.name) })
                """
        }
        switch shape.attempts {
        case .unchanged: break
        case .prepend:
            let entry: SQLiteInputSQL<Update> = "\(bind: { .blob(AttemptRing.entry(prepended($0.row))) })"
            assignments.append("attempts = \(raw: SQLiteConnection.prependAttemptFunction)(\(entry), attempts)")
        case .replace, .replaceWithUnchangedAcks:
            assignments.append("attempts = \(bind: { .blob(AttemptRing.encode(replacing($0.row).all)) })")
        }
        if shape.clearsWaitingAck { assignments.append("waiting_ack_at = NULL, waiting_changed = NULL") }
        if shape.writesUnchangedAcks {
            let unchangedAcks: SQLiteInputSQL<Update> =
                "\(bind: { replacing($0.row).unchangedAcks.map { .integer(Int64($0)) } ?? .null })"
            assignments.append("unchanged_acks = \(unchangedAcks)")
        }
        return """
            UPDATE push_targets SET \(SQL.joined(assignments, separator: ", ")) \
            WHERE \(condition) AND app = \(bind: { .text($0.row.key.app.rawValue) })
            """
    }

    /// The row's target as the sweep read it (`RegisteredAtGuard`).
    private static let stillAsRead: SQLiteInputSQL<Update> = """
        registration_token = \(bind: { .text($0.row.key.registration.hex) }) \
        AND push_kind = \(bind: { .text($0.row.key.kind.name) }) \
        AND \(RegisteredAtGuard.sql(reading: { $0.row.registeredAtGuard }))
        """

    /// The answer a prepending shape puts first.
    private static func prepended(_ row: OutcomeRow) -> PushAttempt {
        guard case .prepend(let attempt) = row.attempts else { preconditionFailure("a row that prepends") }
        return attempt
    }

    /// The attempts a replacing shape writes, and the unchanged acks with them.
    private static func replacing(_ row: OutcomeRow) -> (all: [PushAttempt], unchangedAcks: Int?) {
        guard case .replace(let all, let unchangedAcks) = row.attempts else { preconditionFailure("a row that replaces") }
        return (all, unchangedAcks)
    }
}
