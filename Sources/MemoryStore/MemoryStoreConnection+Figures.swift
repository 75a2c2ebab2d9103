import LiveActivityDomain
import LiveActivityFigures
import LiveActivityStore

/// The figures' reads (SPEC 7) in memory: the counters, and the targets, runs and hours scanned
/// (nothing here is big enough for an index to matter), in the order the SQL engines give.
extension MemoryStoreConnection: FigureQueries {
    /// A counter as read back: held to [0, 2^50], as the SQL engines hold a planted one.
    private static func held(_ value: Int64) -> Int64 { min(max(value, 0), 1 << 50) }

    func registrationCount() throws -> Int {
        state { state in
            Int(state.groups.filter { $0.key.kind == .wake }.map { Self.held($0.value.targets) }.reduce(0, +))
        }
    }

    func registration(_ registration: RegistrationKey, attempts: Bool) throws -> Registration? {
        try state { state in
            let stored = state.targets(of: registration)
            let token = registration.token
            guard !stored.isEmpty else { return nil }
            func target(_ key: TargetKey, _ target: MemoryState.Target) -> PushTarget {
                PushTarget(
                    kind: key.kind, token: target.token, requestedInterval: target.requestedInterval,
                    nextPushAt: target.nextPushAt, lastPushAt: target.lastPushAt, pushCount: target.pushCount,
                    consecutiveFailures: target.failures, lastError: target.lastError, cadence: target.cadence,
                    attempts: attempts ? target.attempts : [])
            }
            let wakeKey = TargetKey(registration, kind: .wake)
            guard let wake = state.targets[wakeKey] else {
                throw StoredValueError(column: "push_targets.push_kind", value: "no wake target of \(registration)")
            }
            return Registration(
                token: token, activityType: wake.facts.activityType, environment: wake.facts.environment,
                registeredAt: wake.facts.registeredAt, expiresAt: wake.facts.expiresAt, wake: target(wakeKey, wake),
                others: stored.filter { $0.key.kind != .wake }.map { target($0.key, $0.target) }, app: registration.app)
        }
    }

    func groups() throws -> [StatsReport.Group] {
        state { state in
            state.groups.filter { $0.value.targets > 0 }
                .map {
                    StatsReport.Group(
                        activityType: $0.key.activityType, environment: $0.key.environment, count: $0.value.targets,
                        kind: $0.key.kind, app: $0.key.app)
                }
        }
    }

    private func wakes(_ state: MemoryState) -> [(key: TargetKey, target: MemoryState.Target)] {
        state.targets.filter { $0.key.kind == .wake }.map { ($0.key, $0.value) }
    }

    /// From the counters, as the real engines: what `TargetCounting` kept up.
    func wakeupTotal() throws -> Int64 {
        state { state in state.groups.filter { $0.key.kind == .wake }.map(\.value.wakeups).reduce(0, +) }
    }

    func registeredAfter(_ bounds: [Int64]) throws -> [Int64] {
        state { state in
            let times = wakes(state).map(\.target.facts.registeredAt)
            return bounds.map { bound in Int64(times.filter { $0 > bound }.count) }
        }
    }

    func oldestRegisteredAt() throws -> Int64? { state { state in wakes(state).map(\.target.facts.registeredAt).min() } }

    func topWakeups(limit: Int) throws -> [StatsReport.TopCount] {
        state { state in
            wakes(state).filter { $0.target.pushCount > 0 }
                .sorted { ($1.target.pushCount, $0.key.registration.hex) < ($0.target.pushCount, $1.key.registration.hex) }
                .prefix(limit).map {
                    StatsReport.TopCount(token: String($0.key.registration.hex.prefix(8)), count: $0.target.pushCount)
                }
        }
    }

    func backingOff() throws -> [StatsReport.BackingOff] {
        state { state in
            var counts: [PushScope: Int64] = [:]
            for (key, target) in state.targets where target.failures > 0 {
                counts[PushScope(environment: target.facts.environment, kind: key.kind), default: 0] += 1
            }
            return counts.map { StatsReport.BackingOff(environment: $0.key.environment, kind: $0.key.kind, count: $0.value) }
        }
    }

    // MARK: - Runs

    private func runs(_ state: MemoryState, since: Int64?) -> [MemoryState.Run] {
        guard let since else { return state.runs }
        return state.runs.filter { $0.record.startedAt >= since }
    }

    func runTotals(since: Int64?) throws -> StatsReport.RunTotals {
        state { state in
            var totals = StatsReport.RunTotals()
            var kinds: [AppKind: (sent: Int64, failed: Int64, removed: Int64)] = [:]
            if let since {
                let runs = runs(state, since: since)
                totals.runs = Int64(runs.count)
                totals.expired = runs.map(\.record.expired).reduce(0, +)
                for kind in runs.flatMap(\.record.kinds) {
                    let key = AppKind(kind.kind, of: kind.app)
                    var sums = kinds[key] ?? (0, 0, 0)
                    sums.sent += kind.sent
                    sums.failed += kind.failed
                    sums.removed += kind.removed
                    kinds[key] = sums
                }
            } else {
                totals.runs = state.lifetimeRuns
                totals.expired = state.lifetimeExpired
                kinds = state.kindTotals
            }
            return StatsReport.RunTotals.assembled(
                totals,
                kinds: kinds.map {
                    StatsReport.PushTotals(
                        kind: $0.key.kind, sent: $0.value.sent, failed: $0.value.failed, removed: $0.value.removed,
                        app: $0.key.app)
                })
        }
    }

    func lastRun() throws -> RecordedRun? {
        state { state in
            state.runs.last.map {
                RecordedRun(
                    startedAt: $0.record.startedAt, durationMilliseconds: $0.record.durationMilliseconds,
                    outcome: $0.record.outcome)
            }
        }
    }

    private static func failed(_ run: MemoryState.Run, _ failingKinds: [String]) -> Bool {
        run.record.faults.contains { failingKinds.contains($0.kind.rawValue) }
    }

    func lastRunPerHost(since: Int64?, failingKinds: [String]) throws -> [HostRun] {
        state { state in
            var last: [String: MemoryState.Run] = [:]
            for run in runs(state, since: since) { last[run.host] = run }
            return last.values.map {
                HostRun(
                    host: $0.host, startedAt: $0.record.startedAt, durationMilliseconds: $0.record.durationMilliseconds,
                    failed: Self.failed($0, failingKinds))
            }
        }
    }

    func lastRunEnd(failingKinds: [String]) throws -> RunEnd? {
        state { state in
            state.runs.last.map {
                RunEnd(
                    finishedAt: $0.record.startedAt + $0.record.durationMilliseconds, failed: Self.failed($0, failingKinds))
            }
        }
    }

    func faults(since: Int64?) throws -> [StatsReport.FaultTotals] {
        state { state in
            var totals = state.faultTotals
            if let since {
                totals = [:]
                for run in runs(state, since: since) {
                    for fault in run.record.faults {
                        let key = MemoryState.FaultKey(
                            environment: fault.environment, pushKind: fault.pushKind, kind: fault.kind, reason: fault.reason,
                            app: fault.app)
                        var total = totals[key] ?? (0, 0, run.record.startedAt)
                        total.runs += 1
                        total.pushes += fault.pushes
                        total.lastAt = max(total.lastAt, run.record.startedAt)
                        totals[key] = total
                    }
                }
            }
            return totals.map {
                StatsReport.FaultTotals(
                    environment: $0.key.environment, pushKind: $0.key.pushKind, kind: $0.key.kind, reason: $0.key.reason,
                    runs: $0.value.runs, pushes: $0.value.pushes, lastAt: $0.value.lastAt, app: $0.key.app)
            }
        }
    }

    func withheld(since: Int64?) throws -> [WithheldWakes] {
        state { state in
            guard let since else { return state.withheldTotals.map { WithheldWakes($0.key, count: $0.value) } }
            return WithheldWakes.listed(runs(state, since: since).flatMap(\.record.withheld).map { ($0.group, $0.count) })
        }
    }

    func lifetimeFailureReasons() throws -> [StatsReport.ReasonCount] {
        state { state in
            state.reasonTotals.filter { $0.key.category == .failed }
                .compactMap { key, count in
                    PushKind(name: key.kind).map { StatsReport.ReasonCount(reason: key.reason, count: count, kind: $0) }
                }
        }
    }

    func reasons(since: Int64) throws -> [RunReason] {
        state { state in
            var sums: [MemoryState.ReasonKey: Int64] = [:]
            for reason in runs(state, since: since).flatMap(\.record.reasons) {
                sums[
                    MemoryState.ReasonKey(category: reason.category, kind: reason.kind.name, reason: reason.reason), default: 0] +=
                    reason.count
            }
            return sums.compactMap { key, count in
                PushKind(name: key.kind).map { RunReason(category: key.category, kind: $0, reason: key.reason, count: count) }
            }
        }
    }

    func runBuckets(since: Int64, width: Int64) throws -> [StatsReport.SweepBucket] {
        state { state in
            struct Key: Hashable {
                var bucket: Int64
                var kind: PushKind
                var app: AppName
            }
            var buckets: [Key: StatsReport.SweepBucket] = [:]
            for run in runs(state, since: since) {
                let start = run.record.startedAt / width * width
                for kind in run.record.kinds {
                    let key = Key(bucket: start, kind: kind.kind, app: kind.app)
                    var bucket =
                        buckets[key]
                        ?? StatsReport.SweepBucket(
                            start: start, runs: 0, active: 0, sent: 0, failed: 0, kind: key.kind, app: key.app)
                    bucket.runs += 1
                    bucket.active = max(bucket.active, kind.active)
                    bucket.sent += kind.sent
                    bucket.failed += kind.failed
                    buckets[key] = bucket
                }
            }
            return Array(buckets.values)
        }
    }

    // MARK: - Delivery

    func deliveryWindows(sinceHour: Int64) throws -> [DeliveryReport.Window] {
        state { state in
            struct Key: Hashable {
                var app: AppName
                var kind: PushKind
                var activityType: ActivityType
            }
            var windows: [Key: DeliveryReport.Window] = [:]
            for (key, hour) in state.hours where key.hour >= sinceHour {
                let group = Key(app: key.app, kind: key.kind, activityType: key.activityType)
                var window =
                    windows[group]
                    ?? DeliveryReport.Window(activityType: .known(group.activityType), kind: group.kind, app: group.app)
                window.delivered += hour.delivered
                window.acked += hour.acked
                window.registrationHours += hour.registrations
                window.delaySumMilliseconds += hour.delaySum
                window.delayBuckets = zip(window.delayBuckets, hour.buckets).map { $0 + $1 }
                windows[group] = window
            }
            return Array(windows.values)
        }
    }

    func deliveryHours(sinceHour: Int64) throws -> [DeliveryHourFigures] {
        state { state in
            struct Key: Hashable {
                var hour: Int64
                var app: AppName
            }
            var hours: [Key: DeliveryHourFigures] = [:]
            for (key, hour) in state.hours where key.hour >= sinceHour && key.kind == .wake {
                let at = Key(hour: key.hour, app: key.app)
                var figures =
                    hours[at]
                    ?? DeliveryHourFigures(
                        hour: key.hour, delivered: 0, acked: 0, delays: [Int64](repeating: 0, count: AckDelayBuckets.count),
                        app: at.app)
                figures.delivered += hour.delivered
                figures.acked += hour.acked
                figures.delays = zip(figures.delays, hour.buckets).map { $0 + $1 }
                hours[at] = figures
            }
            return Array(hours.values)
        }
    }

    func acks(sinceHour: Int64?) throws -> [AckOutcomeCount] {
        state { state in
            guard let sinceHour else {
                return state.ackTotals.compactMap { key, total in
                    AckOutcome(rawValue: key.outcome).map { AckOutcomeCount(outcome: $0, count: total.count, app: key.app) }
                }
            }
            var sums: [MemoryState.AckKey: Int64] = [:]
            for (hour, outcomes) in state.ackHours where hour >= sinceHour {
                for (key, count) in outcomes { sums[key, default: 0] += count }
            }
            return sums.compactMap { key, count in
                AckOutcome(rawValue: key.outcome).map { AckOutcomeCount(outcome: $0, count: count, app: key.app) }
            }
        }
    }

    func ackDelayTotals() throws -> [AckDelayTotals] {
        state { state in
            AckDelayTotals.assembled(
                buckets: state.ackDelays.map { (bucket: Int64($0.key.bucket), count: $0.value, app: $0.key.app) },
                sums: state.ackTotals.filter { $0.key.outcome == AckOutcome.matched.rawValue }.map {
                    (app: $0.key.app, sumMilliseconds: $0.value.delaySum)
                })
        }
    }

    // MARK: - One device

    private func matching(_ prefix: String, in state: MemoryState) -> [RegistrationKey] {
        Set(
            state.targets.filter { key, target in
                key.kind == .wake ? key.registration.hex.hasPrefix(prefix) : target.token.hex.hasPrefix(prefix)
            }.map(\.key.registrationKey)
        ).sorted { ($0.token.hex, $0.app.rawValue) < ($1.token.hex, $1.app.rawValue) }
    }

    func tokens(withPrefix prefix: String, limit: Int) throws -> [RegistrationKey] {
        state { state in Array(matching(prefix, in: state).prefix(limit)) }
    }

    func tokenCount(withPrefix prefix: String) throws -> Int { state { state in matching(prefix, in: state).count } }
}
