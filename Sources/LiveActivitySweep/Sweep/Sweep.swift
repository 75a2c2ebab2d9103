import APNsHTTP2
import LiveActivityDomain
import LiveActivityStore

/// One run of SPEC section 5: expiry, due selection, concurrent pushes, outcomes written in
/// batches, scoped faults, the mass-deletion guard, the time budget, the run recorded. The caller
/// holds the `SweepLock`.
///
/// The sending itself is a `PushRound`: it feeds each answer to `OutcomeRules` and carries out the
/// decision. This type selects what is due and records what came of it.
public final class Sweep {
    /// Cron runs every minute with some jitter: a registration counts as due when its next push
    /// is at most this far ahead, so consecutive pushes land within I - 30 s and I + 60 s.
    public static let dueSlackMilliseconds: Int64 = 30_000

    private let configuration: Configuration
    private let store: SweepStore
    private let sender: PushSender
    private let tokens: ProviderTokenCache
    private let budget: SweepBudget
    private let stopRequested: () -> Bool
    private let log: (String) -> Void
    /// Due rows read from the database at a time, and pushes kept queued in the sender
    /// (`PushRound.lookahead`); tests make them small.
    private let duePageSize: Int
    private let lookahead: Int

    /// `stopRequested` is asked between answers: true (SIGTERM) ends the run as the budget does.
    public init(
        configuration: Configuration, store: SweepStore, sender: PushSender, tokens: ProviderTokenCache,
        budget: SweepBudget = SweepBudget(), stopRequested: @escaping () -> Bool = { false }, duePageSize: Int = 1000,
        lookahead: Int? = nil,
        log: @escaping (String) -> Void
    ) {
        self.configuration = configuration
        self.store = store
        self.sender = sender
        self.tokens = tokens
        self.budget = budget
        self.stopRequested = stopRequested
        self.duePageSize = duePageSize
        self.lookahead = lookahead ?? PushRound.lookahead
        self.log = log
    }

    /// Runs the sweep and returns its summary (also recorded in `sweep_runs`). Faults, each
    /// scoped to its environment, show in `summary.faults`.
    public func run() throws -> SweepSummary {
        let started = ContinuousClock.now
        let clock = configuration.clock
        var summary = SweepSummary()
        let start = clock.now()
        summary.startedAt = start

        summary.expired = try store.deleteExpired(registeredAtOrBefore: start - configuration.expiryMilliseconds)
        summary.active = try store.activeCount()
        let cutoff = start + Self.dueSlackMilliseconds
        let dueCounts = try store.dueCounts(atOrBefore: cutoff, environments: configuration.enabledEnvironments)
        let dueCount = dueCounts.values.reduce(0, +)
        summary.skipped = summary.active - dueCount

        if dueCount > 0 {
            let source = DueCursor(
                store: store, cutoff: cutoff, environments: configuration.enabledEnvironments, pageSize: duePageSize)
            let round = PushRound(
                source: source, dueCounts: dueCounts, lookahead: lookahead, rules: OutcomeRules(configuration: configuration),
                deletionGuard: MassDeletionGuard(everDelivered: try store.environmentsEverDelivered()), sender: sender,
                tokens: tokens, clock: clock, startedAt: start,
                sendUntil: started + .seconds(budget.seconds), stopRequested: stopRequested, log: log)
            let writer = try OutcomeWriter(path: configuration.databasePath, options: configuration.sqliteOptions)
            // On every way out, the thread ends and the batches already queued are written.
            var finished = false
            defer { if !finished { _ = try? writer.finish() } }
            try round.run(writer: writer, summary: &summary)
            finished = true
            summary.removed += try writer.finish()
            try holdUnreached(round.stoppedFaults, cutoff: cutoff, start: start, summary: &summary)
            if summary.deferred > 0 {
                let why =
                    round.stoppedBySignal ? "a stop was requested (SIGTERM)" : "the time budget of \(budget.seconds) s ran out"
                log("\(why): \(summary.deferred) pushes were not sent and are due at the next run")
            }
        }
        summary.durationMilliseconds = clock.now() - start
        try store.record(summary)
        return summary
    }

    /// Holds one interval, in one statement per environment, the rows a fault stopped before the
    /// round read them (SPEC 5: every due row of a faulted environment that got no 200 waits one
    /// interval), after every outcome is written; counts them against the fault.
    private func holdUnreached(_ stopped: [SweepFault], cutoff: Int64, start: Int64, summary: inout SweepSummary) throws {
        for fault in stopped {
            let held = try store.holdUnreached(
                in: fault.environment, dueAtOrBefore: cutoff, registeredAtOrBefore: start, reason: fault.reason,
                now: configuration.clock.now(), policy: configuration.intervalPolicy)
            summary.held += held
            if let index = summary.faults.firstIndex(where: { $0.environment == fault.environment && $0.kind == fault.kind }) {
                summary.faults[index].pushes += held
            }
        }
    }
}
