import APNsHTTP2
import LiveActivityDomain

/// One sweep's sending as a value (SPEC 5 steps 4-6): the pushes pending, the faults by scope,
/// the tallies per app and kind, the mass-deletion guard and the deadline, changed only by `step`,
/// which takes what happened and appends what is to be done. No I/O: the sweep's loop
/// (`Sweep+Sending`) reads rows, drives the sender, renews the token and writes, and feeds back
/// what it saw; so every decision of the sweep can be tested without a database or a network.
///
/// What each answer means is `OutcomeRules`'; the run carries it out: a fault stops its scope
/// (an environment, or one kind of push there) at its first answer (its pushes are cancelled and
/// held, the rest goes on), a retry goes out as a due target does, past the deadline nothing new
/// is sent, and once every answer is in the guard rules on the deletions.
struct SweepRun {
    /// What the loop saw.
    enum Event: Equatable {
        /// A due target was read (also those read after sending stopped, at the end).
        case due(DueTarget, now: Int64)
        /// The answer to push `completion.id` came.
        case answered(APNsCompletion, now: Int64)
        /// The sender dropped these pushes of a scope a fault stopped (after `.cancel`).
        case cancelled([Int], now: Int64)
        /// The sender took these pushes back unsent (after `.withdrawQueued` or `.dropInFlight`).
        case unsent([Int])
        /// A stop was asked for (SIGTERM) at this time.
        case stopRequested(at: ContinuousClock.Instant)
        /// The time, looked at between answers.
        case tick(ContinuousClock.Instant)
        /// Every answer is in and every row read: what is left waits, the guard rules.
        case finish(now: Int64)
    }

    /// What the loop is to do, in order.
    enum Effect: Equatable {
        /// Queue `push` (its kind and app in it) on the sender for `environment`, signed by `as`.
        case send(APNsPush, to: APNsEnvironment, as: SigningIdentity)
        /// Sign a new provider token for this identity and give it to the sender (before the
        /// `.send` that follows).
        case renewProviderToken(SigningIdentity)
        /// Write this in the next outcome batch.
        case write(OutcomeWrite)
        /// Keep this final answer with that batch (the attempt history, the hourly figures).
        case record(AnsweredPush)
        /// Read no more targets of this scope: the sweep holds those left in one statement per group.
        case stopReading(FaultScope)
        /// Drop every push of this scope queued or in flight; answer `.cancelled`.
        case cancel(FaultScope)
        /// Take back every push not yet sent; answer `.unsent`.
        case withdrawQueued
        /// Drop every push still in flight, to any environment; answer `.unsent`.
        case dropInFlight
        /// The deadline moved (a stop): hand it to the sender.
        case setDeadline(Deadline)
    }

    let rules: OutcomeRules
    /// How each app's pushes go out: the topic (its kind adds its suffix) and who signs them.
    let routes: [AppName: AppRoute]
    /// When the sweep began (Unix ms): a row registered after it is left due.
    let startedAt: Int64
    private(set) var deadline: Deadline
    private(set) var stopWasRequested = false
    private(set) var stoppedSending = false
    /// What the decisions counted, per app and kind (the summary adds them).
    private(set) var tallies = SweepTallies()
    /// Wakes the cadence withheld, per app, type, environment and reason.
    private(set) var withheld: [WithheldWakes.Group: Int] = [:]
    private(set) var faults = SweepFaults()
    /// Due targets not sent, and not held by a fault, per app and kind: due again at the next run.
    private(set) var leftForNextRun: [AppKind: Int] = [:]
    private var pending = PendingPushes()
    private var deletionGuard: MassDeletionGuard
    /// Pushes set aside unsent (the deadline passed, or a retry after it); settled at `.finish`.
    private var setAside: [Int] = []
    /// The identities whose token this run renewed (once a sweep each).
    private var renewedTokens: Set<SigningIdentity> = []
    /// Targets answered with a failure (back-off) before any fault of their scope, with the
    /// reason they were counted under: should a fault stop that scope later in the run, they wait
    /// one interval with the rest of it (SPEC 5: every due target that got no 200).
    private var failedBeforeFault: [(row: DueTarget, reason: String)] = []

    init(
        rules: OutcomeRules, routes: [AppName: AppRoute], deletionGuard: MassDeletionGuard, startedAt: Int64,
        deadline: Deadline
    ) {
        self.rules = rules
        self.routes = routes
        self.deletionGuard = deletionGuard
        self.startedAt = startedAt
        self.deadline = deadline
    }

    /// Takes `event` and appends what it calls for to `effects` (a buffer the loop reuses, so a
    /// push costs no allocation of its own).
    mutating func step(_ event: Event, effects: inout [Effect]) {
        switch event {
        case .due(let row, let now):
            send(row, id: nil, now: now, effects: &effects)
        case .answered(let completion, let now):
            answer(completion, now: now, effects: &effects)
        case .cancelled(let ids, let now):
            for id in ids {
                guard let row = pending.remove(id), let fault = faults[row] else { continue }
                touch(row, by: fault, now: now, effects: &effects)
            }
        case .unsent(let ids):
            setAside += ids
        case .stopRequested(let now):
            stopWasRequested = true
            deadline.stop(at: now)
            effects.append(.setDeadline(deadline))
        case .tick(let now):
            // Past the budget (or on a stop) what was not sent is taken back; past the deadline
            // what is still in flight is dropped, after a moment's grace for the timeouts libcurl
            // was given to fire. Neither has an answer to write: they are due at the next run.
            if !stoppedSending && deadline.stopsSending(at: now) {
                stoppedSending = true
                effects.append(.withdrawQueued)
            }
            if stoppedSending && now >= deadline.finishBy + .milliseconds(500) { effects.append(.dropInFlight) }
        case .finish(let now):
            finish(now: now, effects: &effects)
        }
    }

    /// The same, returning the effects (for tests).
    mutating func step(_ event: Event) -> [Effect] {
        var effects: [Effect] = []
        step(event, effects: &effects)
        return effects
    }

    // MARK: - Sending

    /// Sends a due target (`id` nil) or a pending push again (`id`): a fault of its scope holds
    /// it instead, and once sending stopped it is left for the next run (unless a fault comes).
    private mutating func send(_ row: DueTarget, id: Int?, now: Int64, effects: inout [Effect]) {
        // A wake that cannot help now (SPEC 5, "Cadence") is not sent: counted, due at its next tick.
        if id == nil, case .withhold(let reason, let next) = rules.cadenceDecision(row, now: now) {
            effects.append(.write(.withheld(row.key, selectedRegisteredAt: row.registeredAt, nextPushAt: next)))
            let group = WithheldWakes.Group(
                app: row.app, activityType: row.activityType, environment: row.environment, reason: reason)
            withheld[group, default: 0] += 1
            return
        }
        if let fault = faults[row] {
            if let id { pending.remove(id) }
            touch(row, by: fault, now: now, effects: &effects)
        } else if stoppedSending {
            if let id { setAside.append(id) } else { leftForNextRun[row.appKind, default: 0] += 1 }
        } else if let route = routes[row.app] {
            let id = id ?? pending.add(row, sentAt: now)
            // `apns-expiration` (for a kind that sends one) is when the next push replaces this one.
            let expiration = (now + rules.effectiveInterval(row)) / 1000
            effects.append(
                .send(
                    APNsPush(id: id, token: row.token, kind: row.kind, bundleID: route.bundleID, expiration: expiration),
                    to: row.environment, as: route.identity))
        } else {
            // An app this sweep does not serve (gone from LIVEACTIVITY_APPS): left as it is.
            if let id { setAside.append(id) } else { leftForNextRun[row.appKind, default: 0] += 1 }
        }
    }

    // MARK: - Answers

    private mutating func answer(_ completion: APNsCompletion, now: Int64, effects: inout [Effect]) {
        let id = completion.id
        guard let row = pending[id] else { return }
        let decision = rules.decide(completion.answer, for: row, isRetry: pending.isRetry(id), now: now)
        if decision.isFinal {
            deletionGuard.observe(completion.answer, for: row)
            let sentAt = pending.sentAt(id) ?? now
            effects.append(.record(AttemptRecord.answered(completion.answer, for: row, sentAt: sentAt, answeredAt: now)))
            pending.remove(id)
        }
        switch decision.action {
        case .write(let write):
            guard case .failed(_, _, let reason, _) = write else {
                effects.append(.write(write))
                tallies.add(decision.tally, of: row.appKind)
                break
            }
            // A failure in a scope a fault stopped (its answer came before the cancel took the
            // push back) waits with the fault; before any fault it backs off, for now.
            if let fault = faults[row], fault.kind != .unreachable {
                touch(row, by: fault, now: now, effects: &effects)
            } else {
                effects.append(.write(write))
                tallies.add(decision.tally, of: row.appKind)
                if faults[row] == nil { failedBeforeFault.append((row, reason)) }
            }
        case .deleteUnlessGuarded(let write, let reason):
            deletionGuard.hold(write, reason: reason, row: row)
        case .retryWithNewToken:
            // It goes out as a due row does (`send`); only if it goes out now is it the retry,
            // and the token of its identity renewed (once a sweep: every push of that identity
            // after it carries the new one).
            if faults[row] == nil && !stoppedSending {
                pending.markRetried(id, sentAt: now)
                if let identity = routes[row.app]?.identity, renewedTokens.insert(identity).inserted {
                    effects.append(.renewProviderToken(identity))
                }
            }
            send(row, id: id, now: now, effects: &effects)
        case .stopEnvironment(let fault):
            // The first fault of a scope stops it; later answers alike count as touched.
            if faults.raise(fault) {
                if fault.kind != .unreachable { effects.append(.stopReading(fault.scope)) }
                effects.append(.cancel(fault.scope))
            }
            touch(row, by: faults[row] ?? fault, now: now, effects: &effects)
        }
    }

    /// Writes what `fault` does to `row` and counts it against the fault; a target registered
    /// during the sweep is left due (its first push goes out at the next sweep, SPEC 5 step 3).
    private mutating func touch(_ row: DueTarget, by fault: SweepFault, now: Int64, effects: inout [Effect]) {
        faults.touch(fault.scope, pushes: 1)
        guard row.registeredAt <= startedAt else { return }
        let (write, tally) = rules.touched(row, by: fault, now: now)
        effects.append(.write(write))
        tallies.add(tally, of: row.appKind)
    }

    // MARK: - The end

    /// Pushes set aside wait as their scope's fault says, else they are due next run; then the
    /// guard rules on the deletions it held.
    private mutating func finish(now: Int64, effects: inout [Effect]) {
        // Failures that came before their scope's fault: held now, after their back-off write,
        // so the hold is what stays; each push counted once, as held.
        for (row, reason) in failedBeforeFault {
            guard let fault = faults[row], fault.kind != .unreachable else { continue }
            tallies[row.appKind] -= .failed(reason)
            touch(row, by: fault, now: now, effects: &effects)
        }
        failedBeforeFault.removeAll()
        for id in setAside {
            guard let row = pending[id] else { continue }
            if let fault = faults[row] {
                touch(row, by: fault, now: now, effects: &effects)
            } else {
                leftForNextRun[row.appKind, default: 0] += 1
            }
        }
        setAside.removeAll()
        let ruling = deletionGuard.rule(faults: faults.byScope, rules: rules, now: now)
        for (key, tally) in ruling.tallies { tallies.add(tally, of: key) }
        for (scope, count) in ruling.touched { faults.touch(scope, pushes: count) }
        faults.addGuarded(ruling.faults)
        for write in ruling.writes { effects.append(.write(write)) }
    }
}
