import LiveActivityDomain

/// A group-commit batch applied through any engine's `RegistrationStatements`, inside the
/// transaction the writer holds: the rules of SPEC 3 decided here, once, with one statement per
/// kind of write for the whole batch where the engine can (PostgreSQL pipelines them).
///
/// Writes of one batch were concurrent, so any order of them is one the clients could have seen;
/// the batch is applied as registrations, then unregistrations, then acks, each answered as of
/// that order. A registration written twice in one batch splits it (`StoreWrite.runs`), so every
/// statement sees each token once.
extension StoreWrite {
    /// Applies `writes` (no token twice) and answers each, in order: an outcome, or the refusal
    /// that changed nothing (a cap). Throws what the engine threw: the caller rolls back.
    static func apply(
        _ writes: [StoreWrite], to statements: any RegistrationStatements
    ) throws -> [Result<Outcome, any Error>] {
        var answers = [Result<Outcome, any Error>?](repeating: nil, count: writes.count)

        // Registrations: what is stored of each read at once; a stored one is refreshed whatever
        // the counts, a new one stored under the caps, counted as it goes so the caps stay exact
        // within the batch.
        let registrations = writes.indices.compactMap { index -> (Int, NewRegistration, RegistrationCaps)? in
            guard case .register(let registration, let caps) = writes[index] else { return nil }
            return (index, registration, caps)
        }
        // What the counters gain and lose, written with the targets (`TargetCounting`).
        var removed: [CountedTarget] = []
        var added: [CountedTarget] = []
        if !registrations.isEmpty {
            let stored = try statements.storedTargets(registrations.map(\.1.key))
            var counts: RegistrationCounts?
            var targetWrites: [TargetWrite] = []
            var evictions = HeldJunkEvictions(sparing: Set(writes.map(\.key)), wanted: registrations.count)
            for ((index, registration, caps), stored) in zip(registrations, stored) {
                if let stored {
                    let writes = refreshing(stored, with: registration)
                    targetWrites += writes
                    removed += stored.counted
                    added += counted(writes, stored: stored)
                    answers[index] = .success(.registered(.refreshed))
                    continue
                }
                var current = try counts ?? statements.registrationCounts()
                if current.total(of: registration.app) >= caps.total {
                    answers[index] = .failure(StoreError.capacityReached(limit: caps.total))
                } else if current.unproven(of: registration.app, in: registration.environment) >= caps.unproven,
                    try !evictions.evict(
                        in: registration.app, registration.environment, from: statements, removed: &removed, counts: &current)
                {
                    answers[index] = .failure(
                        StoreError.unprovenCapacityReached(limit: caps.unproven, environment: registration.environment))
                } else {
                    current.add(registration.app, in: registration.environment)
                    let writes = registration.targets.map(TargetWrite.insert)
                    targetWrites += writes
                    added += counted(writes, stored: nil)
                    answers[index] = .success(.registered(.created))
                }
                counts = current
            }
            if !targetWrites.isEmpty { try statements.write(targetWrites) }
        }

        let unregistrations = writes.indices.filter { if case .unregister = writes[$0] { true } else { false } }
        if !unregistrations.isEmpty {
            let found = try statements.delete(unregistrations.map { writes[$0].key })
            for (index, targets) in zip(unregistrations, found) {
                removed += targets
                answers[index] = .success(.unregistered(found: !targets.isEmpty))
            }
        }
        let deltas = TargetCounting.deltas(removing: removed, adding: added)
        if !deltas.isEmpty { try statements.adjust(deltas) }

        let acks = writes.indices.compactMap { index -> (Int, RegistrationKey, Int64, IntervalPolicy, AckReport)? in
            guard case .acknowledge(_, _, let now, let policy, let report) = writes[index] else { return nil }
            return (index, writes[index].key, now, policy, report)
        }
        if !acks.isEmpty {
            let subjects = try statements.ackSubjects(acks.map(\.1))
            var rowWrites: [AckWrite] = []
            var counted: [AckCount] = []
            for ((index, token, now, policy, report), subject) in zip(acks, subjects) {
                let (verdict, writes, count) = judge(token, subject, now: now, policy: policy, report: report)
                rowWrites += writes
                if let count { counted.append(count) }
                answers[index] = .success(.acknowledged(verdict))
            }
            if !rowWrites.isEmpty { try statements.write(rowWrites) }
            if !counted.isEmpty { try statements.count(counted) }
        }
        return answers.map { $0 ?? .failure(Unanswered()) }
    }

    /// What refreshing `stored` with `registration` writes (SPEC 3: "a refresh replaces the
    /// registration whole"): each target it asks for that is stored with the same token is
    /// refreshed, keeping its 200s only in the same environment; one stored with another token,
    /// or not asked for any more (a refresh without `widgetPushToken`), is deleted; one not
    /// stored is stored new.
    static func refreshing(_ stored: StoredTargets, with registration: NewRegistration) -> [TargetWrite] {
        let keepsProof = stored.environment == registration.environment
        var writes: [TargetWrite] = []
        let asked = registration.targets
        for (kind, token) in stored.tokens.sorted(by: { $0.key.name < $1.key.name }) {
            let key = TargetKey(registration.key, kind: kind)
            if let target = asked.first(where: { $0.key.kind == kind }), target.token == token {
                writes.append(
                    .refresh(
                        key, target.facts, requestedInterval: target.requestedInterval, keepsProof: keepsProof,
                        cadence: target.cadence))
            } else {
                writes.append(.delete(key))
            }
        }
        for target in asked where stored.tokens[target.key.kind] != target.token { writes.append(.insert(target)) }
        return writes
    }

    /// The targets `writes` leave stored, as the counters count them: a refreshed one proven
    /// where it was and kept its 200s, with its wake-ups (a refresh keeps them), an inserted one
    /// unproven.
    static func counted(_ writes: [TargetWrite], stored: StoredTargets?) -> [CountedTarget] {
        writes.compactMap { write in
            switch write {
            case .insert(let target):
                CountedTarget(
                    kind: target.key.kind, activityType: target.facts.activityType, environment: target.facts.environment,
                    proven: false, app: target.key.app)
            case .refresh(let key, let facts, _, let keepsProof, _):
                CountedTarget(
                    kind: key.kind, activityType: facts.activityType, environment: facts.environment,
                    proven: keepsProof && (stored?.targets[key.kind]?.proven ?? false), app: key.app,
                    wakeups: stored?.targets[key.kind]?.wakeups ?? 0)
            case .delete: nil
            }
        }
    }

    /// An ack against its registration (nil: not registered): its verdict (nil: it waits on the
    /// row for the push on its way), what it writes on the row, and what it counts. What it
    /// reported of the device is kept whatever the verdict; what it said of the data (`changed`)
    /// moves the unchanged acks only when it matched (or, waiting, when the sweep matches it).
    static func judge(
        _ token: RegistrationKey, _ subject: AckSubject?, now: Int64, policy: IntervalPolicy, report: AckReport = .none
    ) -> (AckOutcome?, [AckWrite], AckCount?) {
        guard let subject else { return (.unmatched, [], AckCount(outcome: .unmatched, at: now, app: token.app)) }
        let cadence = policy.cadence(subject.activityType, requested: subject.requestedInterval)
        let reported = CadenceState(
            device: subject.cadence.device.merging(report.device), unchangedAcks: subject.cadence.unchangedAcks)
        /// The state write, where the ack changed what is stored.
        func state(_ after: CadenceState) -> [AckWrite] {
            guard after != subject.cadence else { return [] }
            let next = cadence.dueAfterChange(
                after, lastPushAt: subject.lastPushAt, registeredAt: subject.registeredAt,
                storedNextPushAt: subject.nextPushAt, now: now)
            return [.cadence(token, after, nextPushAt: next)]
        }
        if AckRule.waits(nextPushAt: subject.nextPushAt, now: now) {
            // One ack waits for a push; another for the same push is a duplicate.
            if subject.waitingAckAt != nil {
                return (.duplicate, state(reported), AckCount(outcome: .duplicate, at: now, app: token.app))
            }
            return (nil, [.wait(token, at: now, changed: report.changed)] + state(reported), nil)
        }
        // The window is two intervals of the cadence the push went out under (SPEC 3).
        let interval = cadence.effective(subject.cadence)
        let verdict = AckRule.judge(ackAt: now, attempts: subject.attempts, intervalMilliseconds: interval)
        guard case .matched(let index, let delay) = verdict else {
            return (verdict.outcome, state(reported), AckCount(outcome: verdict.outcome, at: now, app: token.app))
        }
        let marked = AckRule.marking(subject.attempts, index: index, delayMilliseconds: delay)
        let match = AckCount.Match(
            answeredAt: subject.attempts[index].answeredAt, activityType: subject.activityType,
            environment: subject.environment, delayMilliseconds: delay)
        return (
            .matched, [.mark(token, attempts: marked)] + state(reported.acknowledged(changed: report.changed)),
            AckCount(outcome: .matched, at: now, match: match, app: token.app)
        )
    }

    /// `writes` cut where a token comes again, so no run holds a token twice; the runs are
    /// applied in order in one transaction.
    static func runs(_ writes: [StoreWrite]) -> [[Int]] {
        var runs: [[Int]] = [[]]
        var seen = Set<RegistrationKey>()
        for index in writes.indices {
            if !seen.insert(writes[index].key).inserted {
                runs.append([])
                seen = [writes[index].key]
            }
            runs[runs.count - 1].append(index)
        }
        return runs.filter { !$0.isEmpty }
    }

    /// A write the batch left unanswered: a defect, never expected.
    struct Unanswered: Error, CustomStringConvertible {
        var description: String { "write was not answered" }
    }
}
