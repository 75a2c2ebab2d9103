import APNsHTTP2
import LiveActivityCore

/// One run of SPEC section 5: expiry, due selection, concurrent pushes, outcomes written in
/// batches, the mass-deletion guard, the run recorded. The caller holds the `SweepLock`.
public final class Sweep {
    /// Cron runs every minute with some jitter: a registration counts as due when its next push
    /// is at most this far ahead, so consecutive pushes land within I - 30 s and I + 60 s.
    public static let dueSlackMilliseconds: Int64 = 30_000
    /// Outcomes are written at least this often, so a killed sweep loses little bookkeeping.
    static let batchSize = 1000
    /// The mass-deletion guard needs at least this many answers from one environment.
    static let guardMinimumAnswers = 10

    private let configuration: Configuration
    private let store: SweepStore
    private let sender: PushSender
    private let tokens: ProviderTokenCache
    private let log: (String) -> Void

    public init(
        configuration: Configuration, store: SweepStore, sender: PushSender, tokens: ProviderTokenCache,
        log: @escaping (String) -> Void
    ) {
        self.configuration = configuration
        self.store = store
        self.sender = sender
        self.tokens = tokens
        self.log = log
    }

    /// Runs the sweep and returns its summary (also recorded in `sweep_runs`).
    /// A configuration fault or the mass-deletion guard shows in `summary.configurationFault`.
    public func run() throws -> SweepSummary {
        let clock = configuration.clock
        var summary = SweepSummary()
        let start = clock.now()
        summary.startedAt = start

        summary.expired = try store.deleteExpired(registeredAtOrBefore: start - configuration.expiryMilliseconds)
        summary.active = try store.activeCount()
        let due = try store.due(atOrBefore: start + Self.dueSlackMilliseconds)
        summary.skipped = summary.active - due.count

        if !due.isEmpty {
            try push(due, summary: &summary)
        }
        summary.durationMilliseconds = clock.now() - start
        try store.record(summary)
        return summary
    }

    // MARK: - Sending

    private func push(_ due: [SweepStore.Due], summary: inout SweepSummary) throws {
        let clock = configuration.clock
        sender.setProviderToken(try tokens.current(now: clock.now()))
        for (index, registration) in due.enumerated() {
            sender.enqueue(makePush(index, registration, now: clock.now()), to: registration.environment)
        }

        let writer = try OutcomeWriter(path: store.connection.path, options: configuration.sqliteOptions)
        // On every way out, the thread ends and the batches already queued are written.
        var written: Int?
        defer { if written == nil { _ = try? writer.finish() } }

        var pending: [SweepStore.Write] = []
        var retried = Set<Int>()
        var renewed = false
        var badTokens: [APNsEnvironment: [SweepStore.Write]] = [:]
        var answered: [APNsEnvironment: Int] = [:]
        var badTokenAnswers: [APNsEnvironment: Int] = [:]
        var badReasons: [PushToken: String] = [:]

        func fail(_ token: PushToken, _ reason: String, next: Int64?) {
            summary.failed += 1
            summary.failureReasons[reason, default: 0] += 1
            pending.append(.failed(token, reason: reason, nextPushAt: next))
        }

        while summary.configurationFault == nil {
            let completions = try sender.nextCompletions()
            if completions.isEmpty { break }
            for result in completions {
                let registration = due[result.id]
                let now = clock.now()
                if result.answer.status != nil { answered[registration.environment, default: 0] += 1 }
                switch PushDisposition(result.answer) {
                case .delivered:
                    summary.sent += 1
                    pending.append(
                        .delivered(
                            registration.token, selectedRegisteredAt: registration.registeredAt, at: now,
                            nextPushAt: now + configuration.intervalMilliseconds(registration.activityType)))
                case .unregistered(let reason, let timestamp):
                    summary.removalReasons[reason, default: 0] += 1
                    pending.append(
                        .unregistered(
                            registration.token, registeredAtOrBefore: timestamp ?? registration.registeredAt,
                            reason: reason, nextPushAt: now + configuration.intervalMilliseconds(registration.activityType)))
                case .badDeviceToken(let reason):
                    if reason == "BadDeviceToken" { badTokenAnswers[registration.environment, default: 0] += 1 }
                    badTokens[registration.environment, default: []].append(
                        .delete(registration.token, registeredAtOrBefore: registration.registeredAt))
                    badReasons[registration.token] = reason
                case .expiredProviderToken:
                    if retried.insert(result.id).inserted {
                        if !renewed {
                            renewed = true
                            log("APNs answered ExpiredProviderToken; signing a new provider token")
                            sender.setProviderToken(try tokens.renew(now: now))
                        }
                        sender.enqueue(makePush(result.id, registration, now: now), to: registration.environment)
                    } else {
                        fail(registration.token, "ExpiredProviderToken", next: nil)
                    }
                case .configurationFault(let reason):
                    summary.configurationFault =
                        "APNs answered \(result.answer.status ?? 0) \(reason) for the \(registration.environment.rawValue) environment; check APNS_KEY_ID, APNS_TEAM_ID, APNS_BUNDLE_ID, the key and APNS_ENVIRONMENT. Sending stopped; no registration was removed."
                    summary.failureReasons[reason, default: 0] += 1
                    sender.cancelAll()
                case .retryLater(let reason):
                    fail(registration.token, reason, next: nil)
                case .rejected(let reason):
                    log("APNs rejected a push to \(registration.token.logPrefix): \(result.answer.status ?? 0) \(reason)")
                    fail(registration.token, reason, next: now + configuration.intervalMilliseconds(registration.activityType))
                }
                if summary.configurationFault != nil { break }
            }
            if pending.count >= Self.batchSize {
                try writer.submit(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }

        // Mass-deletion guard: BadDeviceToken from most of an environment means a wrong host or
        // key for it, not dead tokens; deleting would wipe every registration of that environment.
        for (environment, writes) in badTokens.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let total = answered[environment] ?? 0
            let bad = badTokenAnswers[environment] ?? 0
            if total >= Self.guardMinimumAnswers && bad * 2 > total {
                summary.configurationFault =
                    summary.configurationFault
                    ?? "\(bad) of \(total) pushes to \(environment.rawValue) answered BadDeviceToken: wrong APNs host or key for that environment? Nothing was deleted for it."
                for case .delete(let token, _) in writes {
                    fail(token, badReasons[token] ?? "BadDeviceToken", next: nil)
                }
            } else if summary.configurationFault == nil {
                for case .delete(let token, _) in writes {
                    summary.removalReasons[badReasons[token] ?? "BadDeviceToken", default: 0] += 1
                }
                pending.append(contentsOf: writes)
            }
        }
        written = try writer.finish()
        summary.removed += (written ?? 0) + (try store.apply(pending))
    }

    private func makePush(_ index: Int, _ registration: SweepStore.Due, now: Int64) -> APNsPush {
        // apns-expiration: the push is worth delivering until the next one replaces it.
        let expiration = (now + configuration.intervalMilliseconds(registration.activityType)) / 1000
        return APNsPush(id: index, token: registration.token, expiration: expiration)
    }
}
