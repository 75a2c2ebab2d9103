import LiveActivityDomain
import LiveActivityStore

/// A sweep's statements (SPEC 5) in memory: one host, as on SQLite (no `SharedDatabase`), so a
/// due target is read, not claimed, and an outcome is written only where its registration is still as it was read.
extension MemoryStoreConnection: SweepStatements {
    func countExpired(registeredAtOrBefore cutoff: Int64) throws -> Int {
        state { state in state.targets.filter { $0.key.kind == .wake && $0.value.facts.registeredAt <= cutoff }.count }
    }

    func deleteExpired(registeredAtOrBefore cutoff: Int64) throws -> [CountedTarget: Int] {
        state { state in
            var gone: [CountedTarget] = []
            for (key, target) in state.targets where target.facts.registeredAt <= cutoff {
                gone.append(MemoryState.counted(key, target))
                state.targets[key] = nil
            }
            return CountedTarget.tally(gone)
        }
    }

    func dueCounts(atOrBefore cutoff: Int64, environments: [APNsEnvironment]) throws -> [PushScope: Int] {
        state { state in
            var counts: [PushScope: Int] = [:]
            for (key, target) in state.targets
            where target.nextPushAt <= cutoff && environments.contains(target.facts.environment) {
                counts[PushScope(environment: target.facts.environment, kind: key.kind, app: key.app), default: 0] += 1
            }
            return counts
        }
    }

    func claimDue(
        atOrBefore cutoff: Int64, environments: [APNsEnvironment], after position: DuePosition?, limit: Int
    ) throws -> [DueRead] {
        state { state in
            var due: [(place: DuePosition, target: MemoryState.Target)] = []
            for (key, target) in state.targets
            where target.nextPushAt <= cutoff && environments.contains(target.facts.environment) {
                let place = DuePosition(nextPushAt: target.nextPushAt, key: key)
                if let position, !DueOrder.precedes(position, place) { continue }
                due.append((place, target))
            }
            due.sort { DueOrder.precedes($0.place, $1.place) }
            return due.prefix(limit).map { place, target in
                DueRead(position: place, target: .success(Self.due(place.key, target)))
            }
        }
    }

    private static func due(_ key: TargetKey, _ target: MemoryState.Target) -> DueTarget {
        DueTarget(
            key: key, token: target.token, activityType: target.facts.activityType, environment: target.facts.environment,
            registeredAt: target.facts.registeredAt, proven: target.lastPushAt != nil, failures: Int(target.failures),
            nextPushAt: target.nextPushAt, requestedInterval: target.requestedInterval, lastPushAt: target.lastPushAt,
            guardHolds: Int(target.guardHolds), cadence: target.cadence)
    }

    /// Whether `target` is one of `unreached`, from the fields it keeps.
    private static func matches(_ unreached: UnreachedTargets, _ key: TargetKey, _ target: MemoryState.Target) -> Bool {
        unreached.matches(
            key, environment: target.facts.environment, nextPushAt: target.nextPushAt,
            registeredAt: target.facts.registeredAt, lastPushAt: target.lastPushAt)
    }

    private static func group(_ key: TargetKey, _ target: MemoryState.Target) -> IntervalGroup {
        IntervalGroup(kind: key.kind, activityType: target.facts.activityType, requestedInterval: target.requestedInterval)
    }

    func unreachedGroups(
        in scope: FaultScope, dueAtOrBefore cutoff: Int64, registeredAtOrBefore start: Int64
    ) throws -> [IntervalGroup] {
        let unreached = UnreachedTargets(scope: scope, dueAtOrBefore: cutoff, registeredAtOrBefore: start)
        return state { state in
            Array(Set(state.targets.filter { Self.matches(unreached, $0.key, $0.value) }.map { Self.group($0.key, $0.value) }))
        }
    }

    func holdUnreached(
        in scope: FaultScope, group: IntervalGroup, dueAtOrBefore cutoff: Int64, registeredAtOrBefore start: Int64,
        reason: String, nextPushAt: Int64
    ) throws -> Int {
        let unreached = UnreachedTargets(scope: scope, dueAtOrBefore: cutoff, registeredAtOrBefore: start)
        return state { state in
            var held = 0
            for (key, target) in state.targets where Self.matches(unreached, key, target) && Self.group(key, target) == group {
                state.targets[key]?.lastError = StoredValue.reason(reason)
                state.targets[key]?.nextPushAt = nextPushAt
                held += 1
            }
            return held
        }
    }

    func scopesEverDelivered() throws -> Set<PushScope> { state { Set($0.delivered.keys) } }

    func markEverDelivered(_ firsts: [PushScope: Int64]) throws {
        state { state in
            for (scope, at) in firsts where state.delivered[scope] == nil { state.delivered[scope] = at }
        }
    }

    func waitingAcks(among keys: [RegistrationKey]) throws -> [WaitingAck] {
        state { state in
            keys.compactMap { key in
                guard let target = state.targets[TargetKey(key, kind: .wake)], let at = target.waitingAckAt else { return nil }
                return WaitingAck(
                    key: key, at: at, activityType: target.facts.activityType, environment: target.facts.environment,
                    requestedInterval: target.requestedInterval, changed: target.waitingChanged, cadence: target.cadence,
                    attempts: target.attempts)
            }
        }
    }

    func write(_ rows: [OutcomeRow]) throws -> OutcomeRow.Written {
        state { state in
            var deleted: [CountedTarget] = []
            let results = rows.map { row in Self.write(row, into: &state, deleted: &deleted) }
            return OutcomeRow.Written(results: results, deleted: deleted)
        }
    }

    /// One row, as SQLite's statements write it: only where the registration is still the one
    /// the sweep read; its attempts and a judged ack with the write that reaches it.
    private static func write(_ row: OutcomeRow, into state: inout MemoryState, deleted: inout [CountedTarget])
        -> OutcomeRow.Result
    {
        func keep(_ kept: OutcomeRow.Change.Kept) -> OutcomeRow.Result {
            guard var target = state.targets[row.key], row.registeredAtGuard.matches(target.facts.registeredAt) else {
                return .skipped
            }
            target.failures += Int64(kept.failuresAdded)
            if let reason = kept.reason { target.lastError = reason }
            target.nextPushAt = kept.nextPushAt
            target.guardHolds += Int64(kept.guardHoldsAdded)
            state.targets[row.key] = attempted(target)
            return .written
        }
        func delete(registeredAtOrBefore cutoff: Int64) -> Bool {
            guard let target = state.targets[row.key], target.facts.registeredAt <= cutoff else { return false }
            let keys = row.deletesRegistration ? state.targets(of: row.key.registrationKey).map(\.key) : [row.key]
            for key in keys {
                if let gone = state.targets.removeValue(forKey: key) { deleted.append(MemoryState.counted(key, gone)) }
            }
            _ = target
            return true
        }
        func attempted(_ target: MemoryState.Target) -> MemoryState.Target {
            var target = target
            switch row.attempts {
            case .unchanged: break
            case .prepend(let attempt): target.attempts = Array(([attempt] + target.attempts).prefix(PushAttempt.kept))
            case .replace(let all, let unchangedAcks):
                target.attempts = Array(all.prefix(PushAttempt.kept))
                if let unchangedAcks { target.cadence.unchangedAcks = unchangedAcks }
            }
            if row.clearsWaitingAck {
                target.waitingAckAt = nil
                target.waitingChanged = nil
            }
            return target
        }
        switch row.change {
        case .delivered(let at, let next):
            guard var target = state.targets[row.key], row.registeredAtGuard.matches(target.facts.registeredAt) else {
                return .skipped
            }
            target.lastPushAt = at
            target.nextPushAt = next
            target.pushCount += 1
            target.failures = 0
            target.lastError = nil
            state.targets[row.key] = attempted(target)
            return .written
        case .kept(let kept):
            return keep(kept)
        case .deleted(let cutoff):
            return delete(registeredAtOrBefore: cutoff) ? .deleted : .skipped
        case .deletedUnlessRenewed(let cutoff, let kept):
            return delete(registeredAtOrBefore: cutoff) ? .deleted : keep(kept)
        case .attemptOnly:
            guard let target = state.targets[row.key], row.attempts != .unchanged || row.clearsWaitingAck else { return .skipped }
            state.targets[row.key] = attempted(target)
            return .written
        }
    }

    func add(_ deliveries: [DeliveryCount]) throws {
        state { state in
            for count in deliveries {
                let key = MemoryState.HourKey(
                    hour: count.hour, kind: count.kind, activityType: count.activityType, environment: count.environment,
                    app: count.app)
                state.hours[key, default: MemoryState.Hour()].registrations += count.registrations
                state.hours[key, default: MemoryState.Hour()].delivered += count.delivered
            }
        }
    }

    func record(_ summary: SweepSummary, host: String, retention: Retention) throws {
        try transaction {
            state { state in
                let record = RunRecord(summary)
                state.runs.append(MemoryState.Run(id: state.nextRunID, host: host, record: record))
                state.nextRunID += 1
                state.lifetimeRuns += 1
                state.lifetimeExpired += record.expired
                for kind in record.kinds {
                    let key = AppKind(kind.kind, of: kind.app)
                    var total = state.kindTotals[key] ?? (0, 0, 0)
                    total.sent += kind.sent
                    total.failed += kind.failed
                    total.removed += kind.removed
                    state.kindTotals[key] = total
                }
                for reason in record.reasons {
                    state.reasonTotals[
                        MemoryState.ReasonKey(category: reason.category, kind: reason.kind.name, reason: reason.reason),
                        default: 0] += reason.count
                }
                for fault in record.faults {
                    let key = MemoryState.FaultKey(
                        environment: fault.environment, pushKind: fault.pushKind, kind: fault.kind, reason: fault.reason,
                        app: fault.app)
                    var total = state.faultTotals[key] ?? (0, 0, record.startedAt)
                    total.runs += 1
                    total.pushes += fault.pushes
                    total.lastAt = max(total.lastAt, record.startedAt)
                    state.faultTotals[key] = total
                }
                for withheld in record.withheld {
                    state.withheldTotals[withheld.group, default: 0] = state.withheldTotals[withheld.group, default: 0]
                        .addingSaturated(withheld.count)
                }
                state.runs.removeAll { $0.record.startedAt < retention.runsBefore }
                state.hours = state.hours.filter { $0.key.hour >= retention.hoursBefore }
                state.ackHours = state.ackHours.filter { $0.key >= retention.hoursBefore }
            }
        }
    }

    func exchangeSettingsFingerprint(_ fingerprint: String, host: String) throws -> String? {
        state { state in
            defer { state.fingerprints[host] = fingerprint }
            return state.fingerprints[host]
        }
    }

    func releaseHeld(reasons: [String], now: Int64) throws -> Int {
        state { state in
            var released = 0
            for (key, target) in state.targets
            where target.nextPushAt > now && target.lastError.map(reasons.contains) == true {
                state.targets[key]?.nextPushAt = now
                released += 1
            }
            return released
        }
    }
}
