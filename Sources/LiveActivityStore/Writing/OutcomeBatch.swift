import LiveActivityDomain

/// One batch of a sweep's outcomes applied through any engine's `SweepStatements`, in one
/// transaction (SPEC 4, 5): the writes folded to one per push target, each answer put first in
/// its target's attempts, an ack that waited for one of these pushes judged (`AckRule`), and the
/// hourly figures of the 200s added. What each write means is decided here, once; an engine runs
/// one statement per kind of row for the whole batch where it can.
public struct OutcomeBatch: Sendable {
    public var writes: [OutcomeWrite]
    /// The final answers the writes come from (the attempt history, the figures).
    public var answered: [AnsweredPush]

    public init(writes: [OutcomeWrite], answered: [AnsweredPush] = []) {
        self.writes = writes
        self.answered = answered
    }

    public var isEmpty: Bool { writes.isEmpty && answered.isEmpty }

    /// Applies the batch in one transaction; how many targets of each app and kind it deleted.
    public func apply(to statements: any SweepStatements, policy: IntervalPolicy) throws -> [AppKind: Int] {
        guard !isEmpty else { return [:] }
        // Each answer's row is found once here; the steps after go by index, not by target.
        var rows: [OutcomeRow]
        let rowOfAnswer: [Int]
        (rows, rowOfAnswer) = Self.fold(writes, answered: answered)
        return try statements.transaction {
            let waiting = try statements.waitingAcks(
                among: rows.compactMap { $0.key.kind.acknowledged ? $0.key.registrationKey : nil })
            let acks = Self.judge(waiting, in: &rows, policy: policy)
            let written = try statements.write(rows)
            let results = written.results
            let deliveries = Self.deliveries(answered)
            if !deliveries.isEmpty { try statements.add(deliveries) }
            let firsts = Self.firstDeliveries(answered)
            if !firsts.isEmpty { try statements.markEverDelivered(firsts) }
            // The counters follow in the same transaction: the targets deleted, those proved, and
            // the wake-ups of the 200s written.
            let delivered = Self.writtenDeliveries(rows, results)
            let deltas = TargetCounting.deltas(
                removing: written.deleted, proving: Self.proven(delivered, answered, rowOfAnswer: rowOfAnswer),
                delivering: Self.delivered(delivered, answered, rowOfAnswer: rowOfAnswer))
            if !deltas.isEmpty { try statements.adjust(deltas) }
            // An ack is counted where its row took the batch: a row skipped (registered again,
            // another host's now) still holds it, for the write that does reach it.
            let counted = acks.isEmpty ? [] : rows.indices.compactMap { results[$0] == .skipped ? nil : acks[rows[$0].key] }
            if !counted.isEmpty { try statements.count(counted) }
            var deleted: [AppKind: Int] = [:]
            for index in rows.indices where results[index] == .deleted {
                deleted[AppKind(rows[index].key.kind, of: rows[index].key.app), default: 0] += 1
            }
            return deleted
        }
    }

    // MARK: - Folding

    /// One row per target: its writes in the order made (a failure then a fault's hold keep the
    /// failure's count and take the hold's wait), and its answer first in its attempts; and the
    /// row of each answer, in the order of `answered`.
    static func fold(_ writes: [OutcomeWrite], answered: [AnsweredPush]) -> (rows: [OutcomeRow], rowOfAnswer: [Int]) {
        var rows: [OutcomeRow] = []
        var rowOfAnswer: [Int] = []
        var index: [TargetKey: Int] = [:]
        // Most targets have a write and an answer: sized for the batch, nothing grows as it fills.
        rows.reserveCapacity(writes.count + answered.count)
        rowOfAnswer.reserveCapacity(answered.count)
        index.reserveCapacity(writes.count + answered.count)
        for write in writes {
            let (selected, change) = Self.change(write)
            let at = index.value(of: write.key, orInserting: rows.count)
            if at == rows.count {
                rows.append(OutcomeRow(key: write.key, selectedRegisteredAt: selected, change: change))
            } else {
                rows[at].change = Self.fold(rows[at].change, then: change)
            }
        }
        for answer in answered.indices {
            let at = index.value(of: answered[answer].key, orInserting: rows.count)
            if at == rows.count {
                rows.append(
                    OutcomeRow(
                        key: answered[answer].key, selectedRegisteredAt: 0, change: .attemptOnly,
                        attempts: .prepend(answered[answer].attempt)))
            } else {
                rows[at].attempts = .prepend(answered[answer].attempt)
            }
            rowOfAnswer.append(at)
        }
        return (rows, rowOfAnswer)
    }

    private static func change(_ write: OutcomeWrite) -> (selectedRegisteredAt: Int64, OutcomeRow.Change) {
        switch write {
        case .delivered(_, let selected, let at, let next):
            (selected, .delivered(at: at, nextPushAt: next))
        case .failed(_, let selected, let reason, let next):
            (selected, .kept(.init(failuresAdded: 1, reason: reason, nextPushAt: next)))
        case .heldByGuard(_, let selected, let reason, let next):
            (selected, .kept(.init(failuresAdded: 1, guardHoldsAdded: 1, reason: reason, nextPushAt: next)))
        case .held(_, let selected, let reason, let next):
            (selected, .kept(.init(failuresAdded: 0, reason: reason, nextPushAt: next)))
        case .withheld(_, let selected, let next):
            (selected, .kept(.init(failuresAdded: 0, reason: nil, nextPushAt: next)))
        case .delete(_, let cutoff):
            (cutoff, .deleted(registeredAtOrBefore: cutoff))
        case .unregistered(_, let cutoff, let selected, let reason, let next):
            (
                selected,
                .deletedUnlessRenewed(
                    registeredAtOrBefore: cutoff, kept: .init(failuresAdded: 1, reason: reason, nextPushAt: next))
            )
        }
    }

    /// `earlier` then `later` on one row: two keeps add their failures (the later's reason and
    /// wait stand); anything else, the later write stands.
    private static func fold(_ earlier: OutcomeRow.Change, then later: OutcomeRow.Change) -> OutcomeRow.Change {
        guard case .kept(let before) = earlier, case .kept(var after) = later else { return later }
        after.failuresAdded += before.failuresAdded
        after.guardHoldsAdded += before.guardHoldsAdded
        return .kept(after)
    }

    // MARK: - Waiting acks

    /// Judges each ack waiting on a wake target of the batch against the target's attempts as
    /// the batch leaves them; a match marks its push. Returns the count of each, by target.
    static func judge(_ waiting: [WaitingAck], in rows: inout [OutcomeRow], policy: IntervalPolicy) -> [TargetKey: AckCount] {
        guard !waiting.isEmpty else { return [:] }
        let byRegistration = Dictionary(waiting.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        var counts: [TargetKey: AckCount] = [:]
        for index in rows.indices where rows[index].key.kind.acknowledged {
            guard let ack = byRegistration[rows[index].key.registrationKey] else { continue }
            var attempts = ack.attempts
            if case .prepend(let attempt) = rows[index].attempts {
                attempts = Array(([attempt] + attempts).prefix(PushAttempt.kept))
            }
            // Two intervals of the cadence the push went out under (SPEC 3).
            let interval = policy.cadence(ack.activityType, requested: ack.requestedInterval).effective(ack.cadence)
            let verdict = AckRule.judge(ackAt: ack.at, attempts: attempts, intervalMilliseconds: interval)
            rows[index].clearsWaitingAck = true
            guard case .matched(let matched, let delay) = verdict else {
                counts[rows[index].key] = AckCount(outcome: verdict.outcome, at: ack.at, app: ack.key.app)
                continue
            }
            // What it said of the data moves the unchanged acks, as a match at once would have.
            rows[index].attempts = .replace(
                AckRule.marking(attempts, index: matched, delayMilliseconds: delay),
                unchangedAcks: ack.changed.map { ack.cadence.acknowledged(changed: $0).unchangedAcks })
            let match = AckCount.Match(
                answeredAt: attempts[matched].answeredAt, activityType: ack.activityType, environment: ack.environment,
                delayMilliseconds: delay)
            counts[rows[index].key] = AckCount(outcome: .matched, at: ack.at, match: match, app: ack.key.app)
        }
        return counts
    }

    // MARK: - Figures

    /// The 200s per hour, type, environment, kind and app, and the targets each was the first of
    /// its hour for (registration-hours: the target's previous 200 fell in an earlier hour).
    static func deliveries(_ answered: [AnsweredPush]) -> [DeliveryCount] {
        var counts: [DeliveryCount] = []
        var index: [DeliveryKey: Int] = [:]
        for answer in answered.indices where answered[answer].attempt.status == 200 {
            let push = answered[answer]
            let hour = DeliveryHour.of(push.attempt.answeredAt)
            let key = DeliveryKey(
                hour: hour, activityType: push.activityType, environment: push.environment, kind: push.kind,
                app: push.key.app)
            let firstOfHour = push.previousDeliveryAt.map { DeliveryHour.of($0) < hour } ?? true
            let at = index.value(of: key, orInserting: counts.count)
            if at == counts.count {
                counts.append(
                    DeliveryCount(
                        hour: hour, activityType: push.activityType, environment: push.environment, kind: push.kind,
                        app: push.key.app, delivered: 0, registrations: 0))
            }
            counts[at].delivered += 1
            if firstOfHour { counts[at].registrations += 1 }
        }
        return counts
    }

    /// The targets the batch's written 200s proved for the first time (their previous 200:
    /// none), as the counters count them before their 200.
    static func proven(_ written: [Bool], _ answered: [AnsweredPush], rowOfAnswer: [Int]) -> [CountedTarget] {
        answered.indices.compactMap { answer in
            let push = answered[answer]
            guard push.attempt.status == 200, push.previousDeliveryAt == nil, written[rowOfAnswer[answer]] else { return nil }
            return CountedTarget(
                kind: push.kind, activityType: push.activityType, environment: push.environment, proven: false, app: push.key.app)
        }
    }

    /// The targets whose 200 the batch wrote, as the counters count them: each row written
    /// `.delivered` is one more wake-up (its `push_count + 1`), in the group its (first) answer
    /// names; in the order of the rows.
    static func delivered(_ written: [Bool], _ answered: [AnsweredPush], rowOfAnswer: [Int]) -> [CountedTarget] {
        var groups = [CountedTarget?](repeating: nil, count: written.count)
        for answer in answered.indices where answered[answer].attempt.status == 200 {
            let row = rowOfAnswer[answer]
            guard written[row], groups[row] == nil else { continue }
            let push = answered[answer]
            groups[row] = CountedTarget(
                kind: push.kind, activityType: push.activityType, environment: push.environment, proven: true,
                app: push.key.app)
        }
        return groups.compactMap { $0 }
    }

    /// Whether each row's `.delivered` change was written (the rows `proven` and `delivered`
    /// count from).
    static func writtenDeliveries(_ rows: [OutcomeRow], _ results: [OutcomeRow.Result]) -> [Bool] {
        rows.indices.map { index in
            guard results[index] == .written, case .delivered = rows[index].change else { return false }
            return true
        }
    }

    /// The first 200 of each app, environment and kind in the batch (SPEC 5's guard: scopes that ever delivered).
    static func firstDeliveries(_ answered: [AnsweredPush]) -> [PushScope: Int64] {
        var firsts: [PushScope: Int64] = [:]
        for answer in answered.indices where answered[answer].attempt.status == 200 {
            let push = answered[answer]
            let scope = PushScope(environment: push.environment, kind: push.kind, app: push.key.app)
            Self.lower(&firsts[scope, default: .max], to: push.attempt.answeredAt)
        }
        return firsts
    }

    private static func lower(_ value: inout Int64, to other: Int64) { value = min(value, other) }

    private struct DeliveryKey: Hashable {
        var hour: Int64
        var activityType: ActivityType
        var environment: APNsEnvironment
        var kind: PushKind
        var app: AppName
    }
}

extension Dictionary where Value == Int {
    /// The value of `key`, or `new` stored as its value and returned when it has none: the key
    /// is hashed once, where a lookup then an insert would hash it twice.
    fileprivate mutating func value(of key: Key, orInserting new: Int) -> Int {
        func read(_ value: inout Int) -> Int { value }
        return read(&self[key, default: new])
    }
}
