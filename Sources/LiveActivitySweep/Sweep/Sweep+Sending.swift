import APNsHTTP2
import LiveActivityDomain
import LiveActivityStore

/// The sweep's loop: the thin I/O around `SweepRun`'s pure step. It reads due rows as the sender
/// needs them (`DueCursor`, keeping `lookahead` pushes queued beyond those in flight), gives the
/// run every row, answer and look at the clock as an event, and carries out the effects: the
/// sender, the token cache, the cursor, and the outcome batches (writes and the final answers they
/// come from, one transaction for both) for the `OutcomeWriter`.
extension Sweep {
    func send(
        _ run: inout SweepRun, reading cursor: DueCursor, dueCounts: [PushScope: Int], writer: OutcomeWriter
    ) throws {
        // Each identity's token before any push (one, for a deployment of one key).
        var tokens: [SigningIdentity: ProviderToken] = [:]
        for identity in apps.identities {
            let token = try apps.tokens(for: identity).current(now: clock.now())
            tokens[identity] = token
            sender.setProviderToken(token, for: identity)
        }
        sender.setDeadline(run.deadline)
        // Each pool plans its connections for the pushes due to it: its apps' of its environment.
        var perPool: [ConnectionPool: Int] = [:]
        for (scope, count) in dueCounts {
            guard let identity = apps.routes[scope.app]?.identity else { continue }
            perPool[ConnectionPool(identity: identity, environment: scope.environment), default: 0] += count
        }
        for (pool, count) in perPool.sorted(by: {
            ($0.key.environment.rawValue, "\($0.key.identity)") < ($1.key.environment.rawValue, "\($1.key.identity)")
        }) {
            sender.expect(count, to: pool.environment, as: pool.identity)
        }

        var effects: [SweepRun.Effect] = []
        var batch: [OutcomeWrite] = []
        var answered: [AnsweredPush] = []
        batch.reserveCapacity(Self.batchSize)
        answered.reserveCapacity(Self.batchSize)

        func apply(_ event: SweepRun.Event) throws {
            effects.removeAll(keepingCapacity: true)
            run.step(event, effects: &effects)
            // What the sender answers to an effect is the next event (rare: a fault, the deadline).
            var answers: [SweepRun.Event] = []
            for effect in effects {
                switch effect {
                case .send(let push, let environment, let identity):
                    sender.enqueue(push, to: environment, as: identity)
                case .renewProviderToken(let identity):
                    let whose = tokens.count > 1 ? " for \(identity)" : ""
                    log("APNs answered ExpiredProviderToken; signing a new provider token\(whose)")
                    let cache = apps.tokens(for: identity)
                    let token =
                        try tokens[identity].map { try cache.renew(replacing: $0, now: clock.now()) }
                        ?? cache.current(now: clock.now())
                    tokens[identity] = token
                    sender.setProviderToken(token, for: identity)
                case .write(let write):
                    batch.append(write)
                case .record(let answer):
                    answered.append(answer)
                case .stopReading(let scope):
                    cursor.skip(scope)
                case .cancel(let scope):
                    // An app this sweep does not serve sent nothing, so nothing of it is cancelled.
                    let cancelled = apps.routes[scope.app].map { sender.cancel(scope, bundleID: $0.bundleID) } ?? []
                    answers.append(.cancelled(cancelled, now: clock.now()))
                case .withdrawQueued:
                    answers.append(.unsent(sender.withdrawQueued()))
                case .dropInFlight:
                    answers.append(.unsent(sender.cancelAll()))
                case .setDeadline(let deadline):
                    sender.setDeadline(deadline)
                }
            }
            for answer in answers { try apply(answer) }
            if batch.count >= Self.batchSize || answered.count >= Self.batchSize {
                try writer.submit(OutcomeBatch(writes: batch, answered: answered))
                batch.removeAll(keepingCapacity: true)
                answered.removeAll(keepingCapacity: true)
            }
        }

        // The clock is read once for the rows read in one go and once for the answers of one
        // poll (they came within that poll): at a few thousand pushes a second, a read a push
        // was a few percent of the sweep's thread for no finer figure.
        var allRead = false
        while true {
            var readAt: Int64?
            while !run.stoppedSending && !allRead && sender.queuedCount < lookahead {
                guard let row = try cursor.next() else {
                    allRead = true
                    break
                }
                let now = readAt ?? clock.now()
                readAt = now
                try apply(.due(row, now: now))
            }
            let now = ContinuousClock.now
            if !run.stopWasRequested && stopRequested() { try apply(.stopRequested(at: now)) }
            try apply(.tick(now))
            if sender.isIdle && (allRead || run.stoppedSending) { break }
            let completions = try sender.poll(timeoutMilliseconds: 500)
            if !completions.isEmpty {
                let answeredAt = clock.now()
                for completion in completions { try apply(.answered(completion, now: answeredAt)) }
            }
        }
        // Targets not read when sending stopped: a faulted scope's wait with it (those of a scope
        // a fault stopped are not read: the sweep holds them in one statement per group).
        while !allRead, let row = try cursor.next() { try apply(.due(row, now: clock.now())) }
        try apply(.finish(now: clock.now()))
        try writer.submit(OutcomeBatch(writes: batch, answered: answered))
    }
}
