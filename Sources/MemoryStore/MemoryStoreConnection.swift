import LiveActivityDomain
import LiveActivityStore

/// One connection to a `MemoryEngine`'s data, speaking the whole contract: the responder's
/// statements here, a sweep's and the figures' in the extensions beside. Used by one thread at
/// a time, as every engine's connection is.
final class MemoryStoreConnection: StoreConnection {
    let database: MemoryDatabase
    /// Whether this connection holds the database for a transaction.
    private var inTransaction = false

    init(_ database: MemoryDatabase) { self.database = database }

    /// Exclusive for its whole length; on a throw every change of it is undone.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        if inTransaction { return try body() }
        database.acquire(for: self)
        inTransaction = true
        let saved = database.owned { $0 }
        defer {
            inTransaction = false
            database.release()
        }
        do {
            return try body()
        } catch {
            database.owned { $0 = saved }
            throw error
        }
    }

    /// `body` on the state: inside this connection's transaction as it is, else holding the
    /// database for this statement alone.
    func state<T>(_ body: (inout MemoryState) throws -> T) rethrows -> T {
        if inTransaction { return try database.owned(body) }
        database.acquire(for: self)
        defer { database.release() }
        return try database.owned(body)
    }

    var staleness: Staleness? { nil }

    func close() {}
}

extension MemoryStoreConnection: RegistrationStatements {
    func storedTargets(_ keys: [RegistrationKey]) throws -> [StoredTargets?] {
        state { state in
            keys.map { key in
                let stored = state.targets(of: key)
                guard let first = stored.first?.target else { return nil }
                return StoredTargets(
                    environment: first.facts.environment, activityType: first.facts.activityType,
                    targets: Dictionary(
                        uniqueKeysWithValues: stored.map {
                            (
                                $0.key.kind,
                                StoredTargets.Stored(
                                    token: $0.target.token, proven: $0.target.lastPushAt != nil, wakeups: $0.target.pushCount)
                            )
                        }), app: key.app)
            }
        }
    }

    func write(_ targets: [TargetWrite]) throws {
        state { state in
            for write in targets {
                switch write {
                case .insert(let new):
                    state.targets[new.key] = MemoryState.Target(
                        facts: new.facts, token: new.token, requestedInterval: new.requestedInterval,
                        nextPushAt: new.facts.registeredAt, cadence: new.cadence)
                case .refresh(let key, let facts, let requested, let keepsProof, let cadence):
                    guard var target = state.targets[key] else { continue }
                    target.facts = facts
                    target.nextPushAt = facts.registeredAt
                    target.failures = 0
                    target.lastError = nil
                    target.requestedInterval = requested
                    target.cadence = cadence
                    target.waitingChanged = nil
                    if !keepsProof { target.lastPushAt = nil }
                    state.targets[key] = target
                case .delete(let key):
                    state.targets[key] = nil
                }
            }
        }
    }

    func registrationCounts() throws -> RegistrationCounts {
        state { state in
            RegistrationCounts(
                state.groups.filter { $0.key.kind == .wake }.map {
                    (
                        app: $0.key.app.rawValue, environment: $0.key.environment.rawValue, total: $0.value.targets,
                        unproven: $0.value.unproven
                    )
                })
        }
    }

    func heldJunk(of app: AppName, in environment: APNsEnvironment, limit: Int) throws -> [RegistrationKey] {
        state { state in
            state.targets.filter { key, target in
                key.app == app && key.kind == .wake && target.facts.environment == environment && target.guardHolds > 0
                    && target.lastPushAt == nil
            }
            .sorted {
                ($0.value.facts.registeredAt, $0.key.registration.hex) < ($1.value.facts.registeredAt, $1.key.registration.hex)
            }
            .prefix(max(0, limit)).map(\.key.registrationKey)
        }
    }

    func delete(_ keys: [RegistrationKey]) throws -> [[CountedTarget]] {
        state { state in
            keys.map { registration in
                state.targets(of: registration).map { key, target in
                    state.targets[key] = nil
                    return MemoryState.counted(key, target)
                }
            }
        }
    }

    func adjust(_ deltas: [GroupDelta]) throws {
        state { state in
            for delta in deltas {
                var counts = state.groups[delta.group] ?? (0, 0, 0)
                counts.targets += delta.targets
                counts.unproven += delta.unproven
                counts.wakeups += delta.wakeups
                state.groups[delta.group] = counts
            }
        }
    }

    func ackSubjects(_ keys: [RegistrationKey]) throws -> [AckSubject?] {
        state { state in
            keys.map { key in
                state.targets[TargetKey(key, kind: .wake)].map { target in
                    AckSubject(
                        activityType: target.facts.activityType, environment: target.facts.environment,
                        requestedInterval: target.requestedInterval, nextPushAt: target.nextPushAt, attempts: target.attempts,
                        waitingAckAt: target.waitingAckAt, lastPushAt: target.lastPushAt,
                        registeredAt: target.facts.registeredAt, cadence: target.cadence)
                }
            }
        }
    }

    func write(_ acks: [AckWrite]) throws {
        state { state in
            for ack in acks {
                switch ack {
                case .mark(let key, let attempts): state.targets[TargetKey(key, kind: .wake)]?.attempts = attempts
                case .wait(let key, let at, let changed):
                    state.targets[TargetKey(key, kind: .wake)]?.waitingAckAt = at
                    state.targets[TargetKey(key, kind: .wake)]?.waitingChanged = changed
                case .cadence(let key, let cadence, let next):
                    state.targets[TargetKey(key, kind: .wake)]?.cadence = cadence
                    state.targets[TargetKey(key, kind: .wake)]?.nextPushAt = next
                }
            }
        }
    }

    func count(_ acks: [AckCount]) throws {
        state { state in
            for ack in acks {
                let outcome = MemoryState.AckKey(outcome: ack.outcome.rawValue, app: ack.app)
                state.ackHours[DeliveryHour.of(ack.at), default: [:]][outcome, default: 0] += 1
                var total = state.ackTotals[outcome] ?? (0, 0)
                total.count += 1
                total.delaySum += ack.match?.delayMilliseconds ?? 0
                state.ackTotals[outcome] = total
                guard let match = ack.match else { continue }
                let bucket = AckDelayBuckets.index(ofMilliseconds: match.delayMilliseconds)
                let key = MemoryState.HourKey(
                    hour: DeliveryHour.of(match.answeredAt), kind: .wake, activityType: match.activityType,
                    environment: match.environment, app: ack.app)
                state.hours[key, default: MemoryState.Hour()].acked += 1
                state.hours[key, default: MemoryState.Hour()].delaySum += match.delayMilliseconds
                state.hours[key, default: MemoryState.Hour()].buckets[bucket] += 1
                state.ackDelays[MemoryState.DelayKey(bucket: bucket, app: ack.app), default: 0] += 1
            }
        }
    }
}
