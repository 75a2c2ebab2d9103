import APNsHTTP2
import LiveActivityDomain
import LiveActivityStore

/// One run of SPEC section 5: expiry, due selection, concurrent pushes, outcomes written in
/// batches, scoped faults, the mass-deletion guard, the time budget, the run recorded. The caller
/// holds the `SweepLock`.
///
/// The sending is a `SweepRun`, a value whose pure step decides (with `OutcomeRules`), driven by
/// this type's loop (`Sweep+Sending`), which does the I/O. This type holds the dependencies (once),
/// selects what is due and records what came of it.
public final class Sweep {
    /// Cron runs every minute with some jitter: a registration counts as due when its next push
    /// is at most this far ahead, so consecutive pushes land within I - 30 s and I + 60 s.
    public static let dueSlackMilliseconds: Int64 = 30_000
    /// Outcomes are written at least this often, so a killed sweep loses little bookkeeping.
    static let batchSize = 1000
    /// Pushes kept queued in the sender: more than its deepest window takes in one pass.
    static let lookahead = 2 * APNsClientSettings.maxConcurrency

    let configuration: Configuration
    let store: SweepStore
    let sender: PushSender
    let tokens: ProviderTokenCache
    let budget: SweepBudget
    let stopRequested: () -> Bool
    let log: (String) -> Void
    /// Due rows read from the database at a time, and pushes kept queued in the sender
    /// (`Sweep.lookahead`); tests make them small.
    let duePageSize: Int
    let lookahead: Int

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
        self.lookahead = max(1, lookahead ?? Self.lookahead)
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
            let cursor = DueCursor(
                store: store, cutoff: cutoff, environments: configuration.enabledEnvironments, pageSize: duePageSize,
                expected: dueCount)
            var run = SweepRun(
                rules: OutcomeRules(configuration: configuration),
                deletionGuard: MassDeletionGuard(everDelivered: try store.environmentsEverDelivered()), startedAt: start,
                deadline: budget.deadline(startingAt: started))
            let writer = try OutcomeWriter(path: configuration.databasePath, options: configuration.sqliteOptions)
            // On every way out, the thread ends and the batches already queued are written.
            var finished = false
            defer { if !finished { _ = try? writer.finish() } }
            try send(&run, reading: cursor, dueCounts: dueCounts, writer: writer)
            finished = true
            summary.removed += try writer.finish()
            summary.add(run.tally)
            summary.deferred = run.leftForNextRun
            var faults = run.faults
            summary.held += try holdUnreached(&faults, cutoff: cutoff, start: start)
            summary.faults = faults.reported
            if summary.deferred > 0 {
                let why =
                    run.stopWasRequested
                    ? "a stop was requested (SIGTERM)" : "the time budget of \(budget.seconds) s ran out"
                log("\(why): \(summary.deferred) pushes were not sent and are due at the next run")
            }
        }
        summary.durationMilliseconds = clock.now() - start
        try store.record(summary)
        return summary
    }

    /// Holds one interval, in one statement per environment, the rows a fault stopped before the
    /// run read them (SPEC 5: every due row of a faulted environment that got no 200 waits one
    /// interval, its own effective one), after every outcome is written; counts them against the
    /// fault. Returns how many.
    private func holdUnreached(_ faults: inout SweepFaults, cutoff: Int64, start: Int64) throws -> Int {
        var total = 0
        for fault in faults.stoppedEnvironments {
            let held = try store.holdUnreached(
                in: fault.environment, dueAtOrBefore: cutoff, registeredAtOrBefore: start, reason: fault.reason,
                now: configuration.clock.now(), policy: configuration.intervalPolicy)
            total += held
            faults.touch(fault.environment, pushes: held)
        }
        return total
    }
}
