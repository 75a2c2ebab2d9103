import APNsHTTP2
import LiveActivityCore

/// The sending part of one sweep: queues a push per due registration, decides on each answer
/// (`OutcomeRules`), hands writes to the `OutcomeWriter` in batches, stops an environment at its
/// first fault (its other pushes are cancelled and held, the other environment goes on), stops
/// sending at the time budget or on SIGTERM, and lets the guard rule at the end.
final class PushRound {
    /// Outcomes are written at least this often, so a killed sweep loses little bookkeeping.
    static let batchSize = 1000

    private let due: [SweepStore.Due]
    private let rules: OutcomeRules
    private let sender: PushSender
    private let tokens: ProviderTokenCache
    private let clock: Clock
    private let stopRequested: () -> Bool
    private let log: (String) -> Void

    /// Nothing new is sent after this; pushes in flight must end by `hardStop`.
    private let sendUntil: ContinuousClock.Instant
    private var hardStop: ContinuousClock.Instant
    private(set) var stoppedSending = false
    private(set) var stoppedBySignal = false

    private var pending: [SweepStore.Write] = []
    private var deletionGuard = MassDeletionGuard()
    private var faults: [APNsEnvironment: SweepFault] = [:]
    private var retried = Set<Int>()
    /// Pushes not sent (budget, SIGTERM): due at the next run, unless a fault holds their environment.
    private var deferred: [Int] = []
    private var renewedToken = false

    init(
        due: [SweepStore.Due], rules: OutcomeRules, sender: PushSender, tokens: ProviderTokenCache, clock: Clock,
        sendUntil: ContinuousClock.Instant, stopRequested: @escaping () -> Bool, log: @escaping (String) -> Void
    ) {
        self.due = due
        self.rules = rules
        self.sender = sender
        self.tokens = tokens
        self.clock = clock
        self.sendUntil = sendUntil
        self.hardStop = sendUntil + .seconds(SweepBudget.drainSeconds)
        self.stopRequested = stopRequested
        self.log = log
    }

    func run(writer: OutcomeWriter, summary: inout SweepSummary) throws {
        sender.setProviderToken(try tokens.current(now: clock.now()))
        sender.setDeadline(hardStop)
        for index in due.indices { enqueue(index, now: clock.now()) }

        while true {
            checkTime()
            if sender.isIdle { break }
            for completion in try sender.poll(timeoutMilliseconds: 500) {
                try handle(completion, summary: &summary)
            }
            if pending.count >= Self.batchSize {
                try writer.submit(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }

        // Rows of a faulted environment wait as its fault says, even those the budget left unsent.
        let now = clock.now()
        for id in deferred {
            if let fault = faults[due[id].environment] { touch(due[id], by: fault, now: now, summary: &summary) }
        }
        summary.deferred = deferred.count(where: { faults[due[$0].environment] == nil })

        let ruling = deletionGuard.rule(faults: faults, rules: rules, now: now)
        summary.add(ruling.tally)
        for (environment, count) in ruling.touched { faults[environment]?.pushes += count }
        // The guard's own faults come after the one that stopped an environment (an unreachable
        // host is the only kind it can follow there).
        summary.faults = faults.values.sorted { $0.environment.rawValue < $1.environment.rawValue } + ruling.faults
        try writer.submit(pending + ruling.writes)
    }

    // MARK: - Time

    /// Past the budget (or on SIGTERM) takes back what was not sent; past the hard stop drops
    /// what is still in flight. Neither has an answer to write: they are due at the next run.
    private func checkTime() {
        let now = ContinuousClock.now
        if !stoppedBySignal && stopRequested() {
            stoppedBySignal = true
            hardStop = min(hardStop, now + .seconds(SweepBudget.drainSeconds))
            sender.setDeadline(hardStop)
        }
        if !stoppedSending && (now >= sendUntil || stoppedBySignal) {
            stoppedSending = true
            deferred += sender.withdrawQueued()
        }
        // A moment's grace after the hard stop for the timeouts libcurl was given to fire.
        if stoppedSending && now >= hardStop + .milliseconds(500) {
            for environment in APNsEnvironment.allCases { deferred += sender.cancel(environment) }
        }
    }

    // MARK: - Answers

    private func handle(_ completion: APNsCompletion, summary: inout SweepSummary) throws {
        let row = due[completion.id]
        let now = clock.now()
        let decision = rules.decide(completion.answer, for: row, isRetry: retried.contains(completion.id), now: now)
        if decision.action != .retryWithNewToken { deletionGuard.observe(completion.answer, for: row) }
        switch decision.action {
        case .write(let write):
            pending.append(write)
            summary.add(decision.tally)
        case .deleteUnlessGuarded(let write, let reason):
            deletionGuard.hold(write, reason: reason, row: row)
        case .retryWithNewToken:
            if let fault = faults[row.environment] {
                touch(row, by: fault, now: now, summary: &summary)
            } else if stoppedSending {
                deferred.append(completion.id)
            } else {
                retried.insert(completion.id)
                if !renewedToken {
                    renewedToken = true
                    log("APNs answered ExpiredProviderToken; signing a new provider token")
                    sender.setProviderToken(try tokens.renew(now: now))
                }
                enqueue(completion.id, now: now)
            }
        case .stopEnvironment(let fault):
            // The first fault of an environment stops it; later answers alike count as touched.
            let current = faults[row.environment] ?? fault
            if faults[row.environment] == nil {
                faults[row.environment] = fault
                for id in sender.cancel(row.environment) { touch(due[id], by: fault, now: now, summary: &summary) }
            }
            touch(row, by: current, now: now, summary: &summary)
        }
    }

    /// Writes what `fault` does to `row` and counts it against the fault.
    private func touch(_ row: SweepStore.Due, by fault: SweepFault, now: Int64, summary: inout SweepSummary) {
        let (write, tally) = rules.touched(row, by: fault, now: now)
        pending.append(write)
        summary.add(tally)
        faults[row.environment]?.pushes += 1
    }

    /// Queues the push for `due[index]`; `apns-expiration` is when the next push replaces it.
    private func enqueue(_ index: Int, now: Int64) {
        let row = due[index]
        let expiration = (now + rules.interval(row.activityType)) / 1000
        sender.enqueue(APNsPush(id: index, token: row.token, expiration: expiration), to: row.environment)
    }
}
