import APNsHTTP2
import LiveActivityCore

/// One run of SPEC section 5: expiry, due selection, concurrent pushes, outcomes written in
/// batches, the mass-deletion guard, the run recorded. The caller holds the `SweepLock`.
///
/// The loop only feeds each answer to `OutcomeRules` and carries out the decision: writes go to
/// the `OutcomeWriter`, deletions to the `MassDeletionGuard`, counts to the summary.
public final class Sweep {
    /// Cron runs every minute with some jitter: a registration counts as due when its next push
    /// is at most this far ahead, so consecutive pushes land within I - 30 s and I + 60 s.
    public static let dueSlackMilliseconds: Int64 = 30_000
    /// Outcomes are written at least this often, so a killed sweep loses little bookkeeping.
    static let batchSize = 1000

    private let configuration: Configuration
    private let rules: OutcomeRules
    private let store: SweepStore
    private let sender: PushSender
    private let tokens: ProviderTokenCache
    private let log: (String) -> Void

    public init(
        configuration: Configuration, store: SweepStore, sender: PushSender, tokens: ProviderTokenCache,
        log: @escaping (String) -> Void
    ) {
        self.configuration = configuration
        self.rules = OutcomeRules(configuration: configuration)
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
        for index in due.indices { enqueue(index, of: due, now: clock.now()) }

        let writer = try OutcomeWriter(path: store.connection.path, options: configuration.sqliteOptions)
        // On every way out, the thread ends and the batches already queued are written.
        var finished = false
        defer { if !finished { _ = try? writer.finish() } }
        var pending: [SweepStore.Write] = []
        var deletionGuard = MassDeletionGuard()
        var retried = Set<Int>()
        var renewedToken = false

        sending: while summary.configurationFault == nil {
            let completions = try sender.nextCompletions()
            if completions.isEmpty { break }
            for completion in completions {
                let row = due[completion.id]
                let now = clock.now()
                deletionGuard.observe(completion.answer, for: row)
                let decision = rules.decide(
                    completion.answer, for: row, isRetry: retried.contains(completion.id), now: now)
                summary.add(decision.tally)
                if let line = decision.logLine { log(line) }
                switch decision.action {
                case .write(let write):
                    pending.append(write)
                case .deleteUnlessGuarded(let write, let reason):
                    deletionGuard.hold(write, reason: reason, environment: row.environment)
                case .retryWithNewToken:
                    retried.insert(completion.id)
                    if !renewedToken {
                        renewedToken = true
                        log("APNs answered ExpiredProviderToken; signing a new provider token")
                        sender.setProviderToken(try tokens.renew(now: now))
                    }
                    enqueue(completion.id, of: due, now: now)
                case .stopSending(let fault):
                    summary.configurationFault = fault
                    sender.cancelAll()
                    break sending
                }
            }
            if pending.count >= Self.batchSize {
                try writer.submit(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }

        let ruling = deletionGuard.rule(after: summary.configurationFault)
        summary.add(ruling.tally)
        summary.configurationFault = ruling.fault
        try writer.submit(pending + ruling.writes)
        finished = true
        summary.removed += try writer.finish()
    }

    /// Queues the push for `due[index]`; `apns-expiration` is when the next push replaces it.
    private func enqueue(_ index: Int, of due: [SweepStore.Due], now: Int64) {
        let row = due[index]
        let expiration = (now + rules.interval(row.activityType)) / 1000
        sender.enqueue(APNsPush(id: index, token: row.token, expiration: expiration), to: row.environment)
    }
}
