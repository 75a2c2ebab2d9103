import APNsHTTP2
import LiveActivityDomain
import LiveActivityStore

/// One run of SPEC section 5: expiry, due selection, concurrent pushes, outcomes written in
/// batches, scoped faults, the mass-deletion guard, the time budget, the run recorded. The caller
/// holds the `SweepLock`.
///
/// The sending is a `SweepRun`, a value whose pure step decides (with `OutcomeRules`), driven by
/// this type's loop (`Sweep+Sending`), which does the I/O. This type holds the dependencies (once),
/// selects what is due and records what came of it. It speaks the store's contract only, so it
/// runs alike on SQLite and PostgreSQL.
public final class Sweep {
    /// Outcomes are written at least this often, so a killed sweep loses little bookkeeping.
    static let batchSize = 1000
    /// Pushes kept queued in the sender beyond those in flight: what a pass refills after a burst
    /// of answers, read again before the next. Each holds its row twice (the sender's queue and
    /// the pending pushes): 4,000 held 3 MB more than 1,000 at 100,000 due, for no more pushes a
    /// second at 100 ms.
    static let lookahead = APNsClientSettings.maxConcurrency / 2

    let configuration: Configuration
    let engine: any StoreEngine
    let store: any SweepStatements
    let sender: PushSender
    /// The apps it sends for: each one's topic and signing identity, a token cache per identity.
    let apps: SweepApps
    let budget: SweepBudget
    /// What its claims and outcome writes go under on a database several hosts share, set on
    /// each connection of the run (`SharedDatabase.lease`); one host's database takes none.
    let lease: SweepLease
    /// The clock due times go by: the database server's on PostgreSQL (`Clock.movedToDatabase`).
    let clock: Clock
    /// The APNs settings' fingerprint: when it changes, held registrations are due at once.
    let settingsFingerprint: String?
    /// The sweep's folder on this host, where the last good run's `ClockMark` is kept (nil: no check).
    let folder: SweepFolder?
    let stopRequested: () -> Bool
    let log: (String) -> Void
    /// Due rows read from the database at a time, and pushes kept queued in the sender
    /// (`Sweep.lookahead`); tests make them small.
    let duePageSize: Int
    let lookahead: Int

    /// `store`: the run's connection, opened (and migrated) by the caller on `engine`, which also
    /// opens the outcome writer's. `stopRequested` is asked between answers: true (SIGTERM) ends
    /// the run as the budget does.
    public init(
        configuration: Configuration, engine: any StoreEngine, store: any SweepStatements, sender: PushSender,
        apps: SweepApps, budget: SweepBudget = SweepBudget(), lease: SweepLease? = nil,
        clock: Clock? = nil,
        settingsFingerprint: String? = nil, folder: SweepFolder? = nil, stopRequested: @escaping () -> Bool = { false },
        duePageSize: Int = 1000,
        lookahead: Int? = nil, log: @escaping (String) -> Void
    ) {
        self.configuration = configuration
        self.engine = engine
        self.store = store
        self.sender = sender
        self.apps = apps
        self.budget = budget
        self.lease = lease ?? SweepLease.random(host: configuration.hostName, seconds: configuration.leaseSeconds)
        self.clock = clock ?? configuration.clock
        self.settingsFingerprint = settingsFingerprint
        self.folder = folder
        self.stopRequested = stopRequested
        self.duePageSize = duePageSize
        self.lookahead = max(1, lookahead ?? Self.lookahead)
        self.log = log
    }

    /// Runs the sweep and returns its summary (also recorded in the run history). Faults, each
    /// scoped to its environment, show in `summary.faults`.
    public func run() throws -> SweepSummary {
        let started = ContinuousClock.now
        var summary = SweepSummary()
        let start = clock.now()
        summary.startedAt = start
        leasing(store)

        try releaseHeldAfterASettingsChange(now: start)
        let mark = ClockMark.now(clock: start)
        try refuseExpiryAfterAClockStep(to: mark, now: start)
        summary.expired = try store.expire(registeredAtOrBefore: start - configuration.expiryMilliseconds)
        // Targets present per app and kind, from the counters (a planted group row saturates: a
        // figure, never a trap).
        for group in try store.groups() {
            // A row of an app this build does not take as a name (a planted `x /tmp/evil.so`) counts
            // nowhere: its name would reach the summary line as words of its own. (A kind this
            // build does not know never reaches here: the decoder leaves its rows out.)
            guard let app = AppName(group.app.rawValue) else { continue }
            let kind = group.kind
            summary[kind, of: app].active = summary[kind, of: app].active.addingSaturated(Int(clamping: max(0, group.count)))
        }
        let cutoff = start + SweepTiming.dueSlackMilliseconds
        let dueCounts = try store.dueCounts(atOrBefore: cutoff, environments: configuration.servedEnvironments)
        let dueCount = dueCounts.values.saturatedSum()
        var dueByAppKind: [AppKind: Int] = [:]
        for (scope, count) in dueCounts {
            let key = AppKind(scope.kind, of: scope.app)
            dueByAppKind[key] = (dueByAppKind[key] ?? 0).addingSaturated(count)
        }
        for key in Set(summary.counts.keys).union(dueByAppKind.keys) {
            summary[key.kind, of: key.app].skipped = max(
                0, summary[key.kind, of: key.app].active.subtractingSaturated(dueByAppKind[key] ?? 0))
        }

        if dueCount > 0 {
            // Only now what sending needs is loaded (libcurl): an idle run maps none of it.
            try sender.prepare()
            let cursor = DueCursor(
                store: store, cutoff: cutoff, environments: configuration.servedEnvironments, pageSize: duePageSize,
                expected: dueCount,
                apps: apps.routes.keys.reduce(into: [:]) { served, app in
                    served[app] = Set(configuration.apps[app]?.enabled ?? configuration.enabledEnvironments)
                }, readingAhead: true)
            var run = SweepRun(
                rules: OutcomeRules(configuration: configuration), routes: apps.routes,
                deletionGuard: MassDeletionGuard(everDelivered: try store.scopesEverDelivered()), startedAt: start,
                deadline: budget.deadline(startingAt: started))
            let writer = try OutcomeWriter(
                statements: leasing(try engine.openOutcomeWriter()), policy: configuration.intervalPolicy)
            // On every way out, the thread ends and the batches already queued are written.
            var finished = false
            defer { if !finished { _ = try? writer.finish() } }
            // The store is the cursor's until then (a page may be being read ahead).
            defer { cursor.finish() }
            try send(&run, reading: cursor, dueCounts: dueCounts, writer: writer)
            cursor.finish()
            finished = true
            for (key, removed) in try writer.finish() { summary[key.kind, of: key.app].removed += removed }
            // Rows this run claimed and wrote nothing for are any host's again at once.
            try (store as? any SharedDatabase)?.releaseClaims()
            for (key, tally) in run.tallies.byAppKind { summary.add(tally, of: key) }
            summary.withheld.merge(run.withheld, uniquingKeysWith: +)
            for (key, count) in run.leftForNextRun { summary[key.kind, of: key.app].deferred = count }
            var faults = run.faults
            try holdUnreached(&faults, into: &summary, cutoff: cutoff, start: start)
            summary.faults = faults.reported
            let deferred = summary.deferredAllKinds
            if deferred > 0 {
                let why =
                    run.stopWasRequested
                    ? "a stop was requested (SIGTERM)" : "the time budget of \(budget.seconds) s ran out"
                log("\(why): \(deferred) pushes were not sent and are due at the next run")
            }
            if !cursor.unserved.isEmpty {
                let apps = cursor.unserved.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                log(
                    "due targets of apps LIVEACTIVITY_APPS does not name were not sent (\(apps.joined(separator: ", "))); "
                        + "they expire as usual")
            }
            if cursor.refused > 0 {
                log(
                    "\(cursor.refused) due targets hold values this build cannot use and were skipped "
                        + "(first: \(cursor.firstRefusal ?? "")); they expire as usual")
            }
        }
        summary.durationMilliseconds = clock.now() - start
        try store.record(summary, host: configuration.hostName, retention: .asOf(start))
        if let folder, let mark { mark.save(in: folder) }
        return summary
    }

    /// How far the clock may step forward between two runs before expiry is questioned.
    static let toleratedClockStep: Int64 = 5 * 60_000

    /// A clock that stepped forward since this host's last good run (NTP fixing a wrong clock, a
    /// failover to a database server whose clock is off) makes rows look older than they are: a
    /// step of 8 hours would expire every registration. When the clock moved more than
    /// `toleratedClockStep` beyond the time that passed, less than a lifetime ago, and expiry
    /// would remove more than half the rows, the run stops before it deletes anything (one line,
    /// exit 1) and the next runs do the same until the clock is right again or a lifetime has
    /// really passed (then the rows are old by any clock).
    private func refuseExpiryAfterAClockStep(to mark: ClockMark?, now: Int64) throws {
        guard let folder, let mark, let previous = ClockMark.load(from: folder), let step = mark.step(since: previous),
            step.forward > Self.toleratedClockStep, step.elapsed < configuration.expiryMilliseconds
        else { return }
        let expiring = try store.countExpired(registeredAtOrBefore: now - configuration.expiryMilliseconds)
        let active = try store.registrationCount()
        guard expiring > 0, expiring.multipliedSaturated(by: 2) > active else { return }
        throw ClockStepRefusal(
            description:
                "clock: the clock moved \(step.forward / 60_000) minutes further than the \(step.elapsed / 1000) s that passed "
                + "since this host's last sweep, and expiry would delete \(expiring) of \(active) registrations: "
                + "nothing expired or sent; set the clock right (the database server's on PostgreSQL)")
    }

    /// Holds one interval, in one statement per scope and interval group, the targets a fault
    /// stopped before the run read them (SPEC 5: every due target of a faulted scope that got no
    /// 200 waits one interval, its own effective one), after every outcome is written; counts
    /// them against the fault and as held under their kind. The interval is `IntervalPolicy`'s,
    /// applied here once per group, not in any engine's SQL.
    private func holdUnreached(_ faults: inout SweepFaults, into summary: inout SweepSummary, cutoff: Int64, start: Int64)
        throws
    {
        let policy = configuration.intervalPolicy
        for fault in faults.stoppedScopes {
            let now = clock.now()
            var held = 0
            for group in try store.unreachedGroups(in: fault.scope, dueAtOrBefore: cutoff, registeredAtOrBefore: start) {
                let count = try store.holdUnreached(
                    in: fault.scope, group: group, dueAtOrBefore: cutoff, registeredAtOrBefore: start, reason: fault.reason,
                    nextPushAt: now + group.intervalMilliseconds(policy))
                summary[group.kind, of: fault.scope.app].held += count
                held += count
            }
            faults.touch(fault.scope, pushes: held)
        }
    }

    /// `connection` with this run's lease where the database is shared (PostgreSQL), so its
    /// claims and outcome writes go under it (SPEC 5, "Several hosts"); as it is otherwise.
    @discardableResult
    private func leasing(_ connection: any SweepStatements) -> any SweepStatements {
        (connection as? any SharedDatabase)?.lease = lease
        return connection
    }

    /// When the APNs settings changed since the last sweep (key, key id, team, bundle id, host),
    /// the registrations a fault or the guard held are due now (SPEC 5): a fixed deployment
    /// reaches its real devices at once instead of after their back-off.
    private func releaseHeldAfterASettingsChange(now: Int64) throws {
        guard let settingsFingerprint else { return }
        let previous = try store.exchangeSettingsFingerprint(settingsFingerprint, host: lease.host)
        guard let previous, previous != settingsFingerprint else { return }
        let reasons =
            APNsReason.documented.values.filter { reason in
                if case .fault = reason.meaning { return true }
                return reason.meaning == .rejected
            }.map(\.name).sorted() + [APNsReason.notHTTP2]
        let released = try store.releaseHeld(reasons: reasons, now: now)
        if released > 0 { log("the APNs settings changed since the last sweep: \(released) held registrations are due now") }
    }
}
