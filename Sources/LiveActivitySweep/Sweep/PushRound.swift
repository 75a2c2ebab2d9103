import APNsHTTP2
import LiveActivityDomain

/// The sending part of one sweep: queues a push per due registration, decides on each answer
/// (`OutcomeRules`), hands writes to the `OutcomeWriter` in batches, stops an environment at its
/// first fault (its other pushes are cancelled and held, the other environment goes on), stops
/// sending at the time budget or on SIGTERM, and lets the guard rule at the end.
///
/// Due rows are read as the sender needs them (`DueCursor`): it keeps `lookahead` pushes queued
/// beyond those in flight, and only the rows of pushes not yet decided are held (`live`). The
/// rows of an environment a fault stopped (not an unreachable host) are not read any more: the
/// sweep holds those left in one statement once every outcome is written (`stoppedFaults`).
/// A registration made during the sweep is never held by a fault: it stays due for the next.
final class PushRound {
    /// Outcomes are written at least this often, so a killed sweep loses little bookkeeping.
    static let batchSize = 1000
    /// Pushes kept queued in the sender: more than its deepest window takes in one pass.
    static let lookahead = 2 * APNsClientSettings.maxConcurrency

    private let source: DueCursor
    /// Due registrations per environment when the round starts: the sender plans its connections.
    private let dueCounts: [APNsEnvironment: Int]
    private let lookahead: Int
    private let rules: OutcomeRules
    private let sender: PushSender
    private let tokens: ProviderTokenCache
    private let clock: Clock
    /// When the sweep began (Unix ms): a row registered after it is left due.
    private let startedAt: Int64
    private let stopRequested: () -> Bool
    private let log: (String) -> Void

    /// Nothing new is sent after this; pushes in flight must end by `hardStop`.
    private let sendUntil: ContinuousClock.Instant
    private var hardStop: ContinuousClock.Instant
    private(set) var stoppedSending = false
    private(set) var stoppedBySignal = false

    /// Rows of the pushes queued or in flight (or deferred), by push id.
    private var live: [Int: DueRegistration] = [:]
    private var nextID = 0
    private var allRead = false
    private var pending: [OutcomeWrite] = []
    /// The final answers since the last batch, for the attempt history and the hourly figures.
    private var answered: [AnsweredPush] = []
    /// When each push queued or in flight was handed to the sender (Unix ms), by push id.
    private var sentAt: [Int: Int64] = [:]
    private var deletionGuard: MassDeletionGuard
    private var faults: [APNsEnvironment: SweepFault] = [:]
    private var retried = Set<Int>()
    /// Pushes not sent (budget, SIGTERM): due at the next run, unless a fault holds their environment.
    private var deferred: [Int] = []
    private var renewedToken = false

    init(
        source: DueCursor, dueCounts: [APNsEnvironment: Int], lookahead: Int, rules: OutcomeRules,
        deletionGuard: MassDeletionGuard, sender: PushSender, tokens: ProviderTokenCache, clock: Clock, startedAt: Int64,
        sendUntil: ContinuousClock.Instant, stopRequested: @escaping () -> Bool, log: @escaping (String) -> Void
    ) {
        self.source = source
        self.dueCounts = dueCounts
        self.lookahead = max(1, lookahead)
        self.rules = rules
        self.deletionGuard = deletionGuard
        self.sender = sender
        self.tokens = tokens
        self.clock = clock
        self.startedAt = startedAt
        self.sendUntil = sendUntil
        self.hardStop = sendUntil + .seconds(SweepBudget.drainSeconds)
        self.stopRequested = stopRequested
        self.log = log
    }

    func run(writer: OutcomeWriter, summary: inout SweepSummary) throws {
        sender.setProviderToken(try tokens.current(now: clock.now()))
        sender.setDeadline(hardStop)
        for (environment, count) in dueCounts.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            sender.expect(count, to: environment)
        }

        while true {
            try topUp(writer: writer, summary: &summary)
            checkTime()
            if sender.isIdle && (allRead || stoppedSending) { break }
            for completion in try sender.poll(timeoutMilliseconds: 500) {
                try handle(completion, summary: &summary)
            }
            try flushIfFull(writer)
        }

        // Rows of a faulted environment wait as its fault says, even those the budget left unsent
        // (the unread ones of a stopped environment: `stoppedFaults`); the others are simply due
        // at the next run.
        let now = clock.now()
        var unsent = 0
        for id in deferred {
            guard let row = live[id] else { continue }
            if !holdIfFaulted(row, now: now, summary: &summary) { unsent += 1 }
        }
        while !allRead, let row = try source.next() {
            if !holdIfFaulted(row, now: now, summary: &summary) { unsent += 1 }
            try flushIfFull(writer)
        }
        summary.deferred = unsent

        let ruling = deletionGuard.rule(faults: faults, rules: rules, now: now)
        summary.add(ruling.tally)
        for (environment, count) in ruling.touched { faults[environment]?.pushes += count }
        // The guard's own faults come after the one that stopped an environment (an unreachable
        // host is the only kind it can follow there).
        summary.faults = faults.values.sorted { $0.environment.rawValue < $1.environment.rawValue } + ruling.faults
        try writer.submit(pending + ruling.writes, answered: answered)
    }

    /// The faults that stopped an environment (not an unreachable host, whose rows back off one
    /// by one): the sweep holds their rows the round never reached, and adds them to `pushes`.
    var stoppedFaults: [SweepFault] {
        faults.values.filter { $0.kind != .unreachable }.sorted { $0.environment.rawValue < $1.environment.rawValue }
    }

    // MARK: - Reading

    /// Reads due rows until the sender has `lookahead` queued: each is queued, or, when a fault
    /// holds its environment, written as the fault says.
    private func topUp(writer: OutcomeWriter, summary: inout SweepSummary) throws {
        guard !stoppedSending else { return }
        while !allRead && sender.queuedCount < lookahead {
            guard let row = try source.next() else {
                allRead = true
                break
            }
            if holdIfFaulted(row, now: clock.now(), summary: &summary) {
                try flushIfFull(writer)
            } else {
                let id = nextID
                nextID += 1
                live[id] = row
                enqueue(id, now: clock.now())
            }
        }
    }

    private func flushIfFull(_ writer: OutcomeWriter) throws {
        guard pending.count >= Self.batchSize || answered.count >= Self.batchSize else { return }
        try writer.submit(pending, answered: answered)
        pending.removeAll(keepingCapacity: true)
        answered.removeAll(keepingCapacity: true)
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
        guard let row = live[completion.id] else { return }
        let now = clock.now()
        let decision = rules.decide(completion.answer, for: row, isRetry: retried.contains(completion.id), now: now)
        if decision.action != .retryWithNewToken {
            deletionGuard.observe(completion.answer, for: row)
            answered.append(
                AttemptRecord.answered(completion.answer, for: row, sentAt: sentAt[completion.id] ?? now, answeredAt: now))
            forget(completion.id)
        }
        switch decision.action {
        case .write(let write):
            pending.append(write)
            summary.add(decision.tally)
        case .deleteUnlessGuarded(let write, let reason):
            deletionGuard.hold(write, reason: reason, row: row)
        case .retryWithNewToken:
            if let fault = faults[row.environment] {
                forget(completion.id)
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
                if fault.kind != .unreachable { source.skip(row.environment) }
                for id in sender.cancel(row.environment) {
                    guard let cancelled = forget(id) else { continue }
                    touch(cancelled, by: fault, now: now, summary: &summary)
                }
            }
            touch(row, by: current, now: now, summary: &summary)
        }
    }

    /// When a fault holds `row`'s environment, writes what it does to the row and returns true.
    private func holdIfFaulted(_ row: DueRegistration, now: Int64, summary: inout SweepSummary) -> Bool {
        guard let fault = faults[row.environment] else { return false }
        touch(row, by: fault, now: now, summary: &summary)
        return true
    }

    /// Writes what `fault` does to `row` and counts it against the fault; a row registered during
    /// the sweep is left due (its first push goes out at the next sweep, SPEC 5 step 3).
    private func touch(_ row: DueRegistration, by fault: SweepFault, now: Int64, summary: inout SweepSummary) {
        faults[row.environment]?.pushes += 1
        guard row.registeredAt <= startedAt else { return }
        let (write, tally) = rules.touched(row, by: fault, now: now)
        pending.append(write)
        summary.add(tally)
    }

    /// Queues the push for `live[id]`; `apns-expiration` is when the next push replaces it.
    private func enqueue(_ id: Int, now: Int64) {
        guard let row = live[id] else { return }
        let expiration = (now + rules.interval(row)) / 1000
        sentAt[id] = now
        sender.enqueue(APNsPush(id: id, token: row.token, expiration: expiration), to: row.environment)
    }

    /// Drops what is held for push `id`, decided now; returns its row.
    @discardableResult
    private func forget(_ id: Int) -> DueRegistration? {
        retried.remove(id)
        sentAt.removeValue(forKey: id)
        return live.removeValue(forKey: id)
    }
}
