import APNsHTTP2
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore
@testable import LiveActivitySweep

/// A registration's widgets target beside its wake target (issue 31, SPEC 4, 5): pushed on its own
/// schedule (its kind's interval, spread per target), deleted alone, stopped alone by a fault of
/// its topic, judged by the guard apart from the wakes, and never acknowledged. No database and no
/// network: the rules, the run's step, the guard and the outcome batch's folding.
private enum Kinds {
    static let now: Int64 = 1_800_000_000_000
    static let registeredAt: Int64 = 1_799_999_000_000
    /// A type's interval of 300 s, so a widgets target's 1800 s (its kind's default) is told apart.
    static let rules = OutcomeRules(policy: IntervalPolicy(typeSeconds: [.charging: 300, .debug: 60]))

    /// The device token of registration `seed`: its key, and its wake target's token.
    static func device(_ seed: Int) -> PushToken { PushToken(trusted: sampleToken(seed)) }

    /// The widget extension's own token of registration `seed` (never the device's).
    static func extensionToken(_ seed: Int) -> PushToken { PushToken(trusted: testToken(seed)) }

    static func widgetsKey(_ seed: Int) -> TargetKey { TargetKey(registration: device(seed), kind: .widgets) }

    static func widgets(
        _ seed: Int, _ environment: APNsEnvironment = .production, proven: Bool = false, registeredAt: Int64 = registeredAt,
        requestedInterval: Int? = nil, type: ActivityType = .charging
    ) -> DueTarget {
        DueTarget(
            key: widgetsKey(seed), token: extensionToken(seed), activityType: type, environment: environment,
            registeredAt: registeredAt, proven: proven, requestedInterval: requestedInterval)
    }

    static func wake(
        _ seed: Int, _ environment: APNsEnvironment = .production, proven: Bool = false, registeredAt: Int64 = registeredAt,
        requestedInterval: Int? = nil
    ) -> DueTarget {
        DueTarget(
            wake: device(seed), activityType: .charging, environment: environment, registeredAt: registeredAt, proven: proven,
            requestedInterval: requestedInterval)
    }

    /// One interval of `row` under `rules` (300 s for a wake, 1800 s for widgets), written out.
    static func interval(_ row: DueTarget) -> Int64 { row.kind == .widgets ? 1_800_000 : 300_000 }

    /// The hold a fault writes for `row`: one interval of its own, its failures as they are.
    static func held(_ row: DueTarget, _ reason: String, now: Int64 = now) -> OutcomeWrite {
        .held(row.key, selectedRegisteredAt: row.registeredAt, reason: reason, nextPushAt: now + interval(row))
    }
}

// MARK: - The rules

@Suite struct PushKindOutcomeRulesTests {
    let now = Kinds.now
    let slack = SweepTiming.dueSlackMilliseconds

    /// The next push a 200 to `row` at `time` schedules (and checks the rest of the write).
    func nextPush(_ row: DueTarget, rules: OutcomeRules = Kinds.rules, at time: Int64 = Kinds.now) -> Int64? {
        let decision = rules.decide(.status(200), for: row, isRetry: false, now: time)
        guard case .write(.delivered(let key, let selected, let at, let next)) = decision.action else {
            Issue.record("a 200 is a delivery: \(decision)")
            return nil
        }
        #expect(key == row.key && selected == row.registeredAt && at == time)
        #expect(decision.tally == .delivered)
        return next
    }

    @Test func aWidgetsTargetsTwoHundredSchedulesOneIntervalTheSlackAndAShareOfATenthOfItsOwn() throws {
        #expect(slack == 30_000)
        let interval: Int64 = 1_800_000  // LIVEACTIVITY_INTERVAL_WIDGETS's default, not the type's 300 s
        var spreads: [Int64] = []
        for seed in 1...200 {
            let next = try #require(nextPush(Kinds.widgets(seed)))
            let spread = next - now - interval - slack
            #expect(spread >= 0 && spread <= interval / 10, "target \(seed): \(spread) ms past the interval and the slack")
            spreads.append(spread)
        }
        #expect(Set(spreads).count >= 190, "most targets have a spread of their own: \(Set(spreads).count) of 200")
        #expect(try #require(spreads.max()) - #require(spreads.min()) > interval / 20, "spread over the tenth, not bunched")
    }

    @Test func aWidgetsTargetsSpreadIsTheSameForItsTokenAtEveryPush() throws {
        let interval: Int64 = 1_800_000
        for seed in [1, 2, 77] {
            let first = try #require(nextPush(Kinds.widgets(seed))) - now
            // Another push, later, after failures: the same share.
            var later = Kinds.widgets(seed)
            later.failures = 3
            later.lastPushAt = now
            let laterTime = now + interval + 47_123
            #expect(try #require(nextPush(later, at: laterTime)) - laterTime == first)
            // The same extension token, the registration made again: still the same share.
            #expect(try #require(nextPush(Kinds.widgets(seed, registeredAt: now - 5))) - now == first)
        }
        #expect(
            try #require(nextPush(Kinds.widgets(1))) != #require(nextPush(Kinds.widgets(2))),
            "two tokens, two shares (these two differ)")
    }

    /// The widgets interval is the kind's setting (default 1800 s), clamped with the app's
    /// `widgetInterval` to [that setting, LIVEACTIVITY_INTERVAL_MAX]: never the activity type's.
    @Test(
        arguments: [
            // (the kind's setting, the type's, asked, effective seconds)
            (nil, 300, nil, 1800), (nil, 2400, nil, 1800), (nil, 60, nil, 1800), (2400, 300, nil, 2400),
            (nil, 300, 600, 1800), (nil, 300, 2700, 2700), (nil, 300, 7200, 3600), (2400, 300, 3000, 3000),
            (2400, 5000, 600, 2400),
        ] as [(Int?, Int, Int?, Int)])
    func aWidgetsIntervalIsItsKindsSettingClampedWithWhatTheAppAsked(
        kindSeconds: Int?, typeSeconds: Int, asked: Int?, effective: Int
    ) throws {
        var policy = IntervalPolicy(typeSeconds: [.charging: typeSeconds])
        if let kindSeconds { policy.kindSeconds[.widgets] = kindSeconds }
        let rules = OutcomeRules(policy: policy)
        let row = Kinds.widgets(3, requestedInterval: asked)
        let interval = Int64(effective) * 1000
        #expect(rules.interval(row) == interval)
        let wait = try #require(nextPush(row, rules: rules)) - now
        #expect(
            wait >= interval + slack && wait <= interval + interval / 10 + slack, "\(wait) ms for an interval of \(effective) s")
        // The wake of the same registration keeps its type's interval, exactly.
        #expect(nextPush(Kinds.wake(3), rules: rules) == now + Int64(typeSeconds) * 1000)
    }

    @Test func aWakesNextPushStaysOneIntervalOnWithNoSpread() {
        var policy = Kinds.rules.policy
        policy.kindSeconds[.widgets] = 2400
        let rules = OutcomeRules(policy: policy)
        for seed in 1...50 { #expect(nextPush(Kinds.wake(seed), rules: rules) == now + 300_000) }
        #expect(nextPush(Kinds.wake(1, requestedInterval: 900), rules: rules) == now + 900_000)
        var debug = Kinds.wake(2)
        debug.activityType = .debug
        #expect(nextPush(debug, rules: rules) == now + 60_000)
    }

    @Test(arguments: ["Unregistered", "ExpiredToken"])
    func aFourTenToAWidgetsPushDeletesTheWidgetsTargetAlone(reason: String) throws {
        let row = Kinds.widgets(1)
        let decision = Kinds.rules.decide(.status(410, reason, timestamp: now - 5), for: row, isRetry: false, now: now)
        let write = OutcomeWrite.unregistered(
            Kinds.widgetsKey(1), registeredAtOrBefore: now - 5, selectedRegisteredAt: row.registeredAt, reason: reason,
            nextPushAt: now + 1_800_000)
        #expect(decision == OutcomeDecision(.write(write), tally: .removed(reason)))
        let stored = try #require(OutcomeBatch.fold([write], answered: []).rows.first)
        #expect(stored.key == TargetKey(registration: Kinds.device(1), kind: .widgets))
        #expect(!stored.deletesRegistration, "a widgets target's 410 never deletes the wake target")
        // A wake's 410 is its registration's.
        let wake = Kinds.wake(1)
        guard case .write(let wakeWrite) = Kinds.rules.decide(.status(410, reason), for: wake, isRetry: false, now: now).action
        else {
            Issue.record("a 410 is a write")
            return
        }
        #expect(wakeWrite.key == .wake(Kinds.device(1)))
        #expect(try #require(OutcomeBatch.fold([wakeWrite], answered: []).rows.first).deletesRegistration)
    }

    @Test(arguments: ["BadDeviceToken", "DeviceTokenNotForTopic"])
    func aRejectedWidgetsTokenAsksTheGuardToDeleteTheWidgetsTargetAlone(reason: String) throws {
        let row = Kinds.widgets(1)
        let deletion = OutcomeWrite.delete(
            TargetKey(registration: Kinds.device(1), kind: .widgets), registeredAtOrBefore: row.registeredAt)
        #expect(
            Kinds.rules.decide(.status(400, reason), for: row, isRetry: false, now: now)
                == OutcomeDecision(.deleteUnlessGuarded(deletion, reason: reason)))
        #expect(try #require(OutcomeBatch.fold([deletion], answered: []).rows.first).deletesRegistration == false)
        let wake = Kinds.wake(1)
        let wakeDeletion = OutcomeWrite.delete(.wake(Kinds.device(1)), registeredAtOrBefore: wake.registeredAt)
        #expect(
            Kinds.rules.decide(.status(400, reason), for: wake, isRetry: false, now: now)
                == OutcomeDecision(.deleteUnlessGuarded(wakeDeletion, reason: reason)))
        #expect(try #require(OutcomeBatch.fold([wakeDeletion], answered: []).rows.first).deletesRegistration)
        // The guard lets it through (a delivering scope) as the widgets target's deletion.
        var deletionGuard = MassDeletionGuard(everDelivered: [PushScope(environment: .production, kind: .widgets)])
        deletionGuard.observe(.status(400, reason), for: row)
        deletionGuard.hold(deletion, reason: reason, row: row)
        let ruling = deletionGuard.rule(faults: [:], rules: Kinds.rules, now: now)
        #expect(ruling.writes == [deletion] && ruling.faults.isEmpty)
        #expect(ruling.tallies == [AppKind(.widgets): .removed(reason)])
    }
}

// MARK: - The run

@Suite struct PushKindSweepRunTests {
    let now = Kinds.now
    let origin = ContinuousClock.now

    func makeRun(everDelivered: Set<PushScope> = []) -> SweepRun {
        SweepRun(
            rules: Kinds.rules, routes: [.defaultApp: SweepFixture.route],
            deletionGuard: MassDeletionGuard(everDelivered: everDelivered),
            startedAt: Kinds.registeredAt + 60_000, deadline: Deadline(sendUntil: origin + .seconds(50), drain: .seconds(5)))
    }

    /// Reads `row` into `run` and returns the id of the push it sent, of its kind, to its token.
    func sent(_ row: DueTarget, in run: inout SweepRun) throws -> Int {
        let effects = run.step(.due(row, now: now))
        guard case .send(let push, let environment, _) = try #require(effects.first), effects.count == 1 else {
            Issue.record("expected one send, got \(effects)")
            return -1
        }
        #expect(environment == row.environment && push.token == row.token && push.kind == row.kind)
        return push.id
    }

    func answer(_ id: Int, _ answer: APNsAnswer, in run: inout SweepRun) -> [SweepRun.Effect] {
        run.step(.answered(APNsCompletion(id: id, answer: answer), now: now)).actions
    }

    func delivered(_ row: DueTarget) -> SweepRun.Effect {
        .write(
            .delivered(
                row.key, selectedRegisteredAt: row.registeredAt, at: now,
                nextPushAt: Kinds.rules.nextPush(row, after: now)))
    }

    @Test(arguments: ["BadTopic", "TopicDisallowed"])
    func aTopicFaultOfAWidgetsPushStopsThatEnvironmentsWidgetsAndItsWakesGoOn(reason: String) throws {
        var run = makeRun()
        let wakes = (1...2).map { Kinds.wake($0) }
        let widgets = (1...3).map { Kinds.widgets($0) }
        let sandboxWidgets = Kinds.widgets(9, .sandbox)
        let wakeIDs = try wakes.map { try sent($0, in: &run) }
        let widgetIDs = try widgets.map { try sent($0, in: &run) }
        let sandboxID = try sent(sandboxWidgets, in: &run)
        let scope = FaultScope(environment: .production, kind: .widgets)
        #expect(
            answer(widgetIDs[0], .status(400, reason), in: &run)
                == [.stopReading(scope), .cancel(scope), .write(Kinds.held(widgets[0], reason))])
        // The sender dropped one widgets push; the other answers alike after it.
        #expect(run.step(.cancelled([widgetIDs[1]], now: now)) == [.write(Kinds.held(widgets[1], reason))])
        #expect(answer(widgetIDs[2], .status(400, reason), in: &run) == [.write(Kinds.held(widgets[2], reason))], "raised once")
        // The wakes of the same environment are answered and written as ever.
        for (row, id) in zip(wakes, wakeIDs) { #expect(answer(id, .status(200), in: &run) == [delivered(row)]) }
        // Read after the fault: a wake is still sent, a widgets target waits with the fault.
        _ = try sent(Kinds.wake(3), in: &run)
        #expect(run.step(.due(Kinds.widgets(4), now: now)) == [.write(Kinds.held(Kinds.widgets(4), reason))])
        // The other environment's widgets go on.
        #expect(answer(sandboxID, .status(200), in: &run) == [delivered(sandboxWidgets)])
        let fault = try #require(run.faults.reported.first)
        #expect(run.faults.reported.count == 1)
        #expect(fault.environment == .production && fault.pushKind == .widgets && fault.kind == .configuration)
        #expect(fault.reason == reason && fault.pushes == 4 && fault.scope == scope)
        #expect(fault.summary == "production/widgets:\(reason):4")
        #expect(run.faults.stoppedScopes.map(\.scope) == [scope])
        #expect(
            run.faults.covering(PushScope(environment: .production, kind: .wake)) == nil
                && run.faults.covering(PushScope(environment: .sandbox, kind: .widgets)) == nil)
        #expect(run.tallies[.wake] == SweepTally(sent: 2) && run.tallies[.widgets] == SweepTally(sent: 1, held: 4))
    }

    @Test func anInvalidProviderTokenOnAWidgetsPushStopsEveryKindOfItsEnvironment() throws {
        var run = makeRun()
        let wake = Kinds.wake(1)
        let faulting = Kinds.widgets(1)
        let other = Kinds.widgets(2)
        let sandboxWake = Kinds.wake(5, .sandbox)
        let wakeID = try sent(wake, in: &run)
        let faultingID = try sent(faulting, in: &run)
        let otherID = try sent(other, in: &run)
        let sandboxID = try sent(sandboxWake, in: &run)
        #expect(
            answer(faultingID, .status(403, "InvalidProviderToken"), in: &run)
                == [.stopReading(.production), .cancel(.production), .write(Kinds.held(faulting, "InvalidProviderToken"))])
        // The cancel took back the wake and the other widgets push: both wait one interval.
        #expect(
            run.step(.cancelled([wakeID, otherID], now: now))
                == [.write(Kinds.held(wake, "InvalidProviderToken")), .write(Kinds.held(other, "InvalidProviderToken"))])
        #expect(run.step(.due(Kinds.wake(3), now: now)) == [.write(Kinds.held(Kinds.wake(3), "InvalidProviderToken"))])
        #expect(run.step(.due(Kinds.widgets(3), now: now)) == [.write(Kinds.held(Kinds.widgets(3), "InvalidProviderToken"))])
        // Sandbox goes on.
        #expect(answer(sandboxID, .status(200), in: &run) == [delivered(sandboxWake)])
        let fault = try #require(run.faults.reported.first)
        #expect(run.faults.reported.count == 1)
        #expect(fault.pushKind == nil && fault.scope == .production && fault.kind == .configuration && fault.pushes == 5)
        #expect(
            run.faults.covering(PushScope(environment: .production, kind: .wake)) == fault
                && run.faults.covering(PushScope(environment: .production, kind: .widgets)) == fault)
        #expect(run.tallies[.wake] == SweepTally(sent: 1, held: 2) && run.tallies[.widgets] == SweepTally(held: 3))
    }

    /// A host lost after a fault of the widgets topic: the wakes back off with the host, and the
    /// widgets keep waiting one interval with their own fault (the host's fault does not hide it).
    @Test func anUnreachableHostAfterAWidgetsTopicFaultLeavesTheWidgetsWithTheirOwnFault() throws {
        var run = makeRun()
        let faulting = Kinds.widgets(1)
        let late = Kinds.widgets(2)
        let wake = Kinds.wake(1)
        let faultingID = try sent(faulting, in: &run)
        let lateID = try sent(late, in: &run)
        let wakeID = try sent(wake, in: &run)
        _ = answer(faultingID, .status(400, "BadTopic"), in: &run)
        let backOff = { (row: DueTarget) in
            SweepRun.Effect.write(
                .failed(
                    row.key, selectedRegisteredAt: row.registeredAt, reason: "CURLE_COULDNT_CONNECT", nextPushAt: now + 60_000))
        }
        #expect(answer(wakeID, .unreachable(.couldNotConnect), in: &run) == [.cancel(.production), backOff(wake)])
        // A widgets answer that came before the cancels took the push back: held with the topic fault.
        #expect(answer(lateID, .status(503, "ServiceUnavailable"), in: &run) == [.write(Kinds.held(late, "BadTopic"))])
        // Read now: a widgets target waits with the topic fault, a wake backs off with the host.
        #expect(run.step(.due(Kinds.widgets(3), now: now)) == [.write(Kinds.held(Kinds.widgets(3), "BadTopic"))])
        #expect(run.step(.due(Kinds.wake(3), now: now)) == [backOff(Kinds.wake(3))])
        #expect(run.faults.covering(PushScope(environment: .production, kind: .widgets))?.reason == "BadTopic")
        #expect(run.faults.covering(PushScope(environment: .production, kind: .wake))?.kind == .unreachable)
        #expect(run.faults.stoppedScopes.map(\.scope) == [FaultScope(environment: .production, kind: .widgets)])
        #expect(run.faults.byScope[FaultScope(environment: .production, kind: .widgets)]?.pushes == 3)
        #expect(run.tallies[.widgets] == SweepTally(held: 3))
        #expect(run.tallies[.wake] == SweepTally(failed: 2, failureReasons: ["CURLE_COULDNT_CONNECT": 2]))
    }

    /// The guard judges each kind apart: ten and more proven widgets targets rejected for their
    /// topic hold the widgets of that environment, while the wakes' junk is deleted there.
    @Test func provenWidgetsTargetsRejectedTripTheGuardForWidgetsAloneWhileWakeJunkIsDeleted() throws {
        var run = makeRun(everDelivered: [.production, PushScope(environment: .production, kind: .widgets)])
        let widgets = (1...12).map { Kinds.widgets($0, proven: true) }
        let junk = (101...102).map { Kinds.wake($0) }
        let wakes = (201...220).map { Kinds.wake($0, proven: true) }
        for row in widgets {
            let id = try sent(row, in: &run)
            #expect(answer(id, .status(400, "DeviceTokenNotForTopic"), in: &run).isEmpty, "the guard rules at the end")
        }
        for row in junk {
            let id = try sent(row, in: &run)
            #expect(answer(id, .status(400, "BadDeviceToken"), in: &run).isEmpty)
        }
        for row in wakes {
            let id = try sent(row, in: &run)
            #expect(answer(id, .status(200), in: &run) == [delivered(row)])
        }
        let effects = run.step(.finish(now: now))
        let deletions = junk.map { SweepRun.Effect.write(.delete($0.key, registeredAtOrBefore: $0.registeredAt)) }
        #expect(effects == deletions + widgets.map { .write(Kinds.held($0, "DeviceTokenNotForTopic")) })
        let fault = try #require(run.faults.reported.first)
        #expect(run.faults.reported.count == 1)
        #expect(fault.kind == .guarded && fault.environment == .production && fault.pushKind == .widgets)
        #expect(fault.reason == "DeviceTokenNotForTopic" && fault.pushes == 12)
        #expect(fault.advice.hasPrefix("12 of 12 proven tokens were rejected"))
        #expect(run.tallies[.wake] == SweepTally(sent: 20, removalReasons: ["BadDeviceToken": 2]))
        #expect(run.tallies[.widgets] == SweepTally(held: 12))
    }

    /// Acks are for wakes: a widgets push goes out as one, and its answer is recorded as the
    /// widgets target's (the batch judges no ack by it, below).
    @Test func aWidgetsPushGoesOutAsOneAndItsAnswerIsTheWidgetsTargets() throws {
        var run = makeRun()
        let target = Kinds.widgets(1)
        let effects = run.step(.due(target, now: now))
        guard case .send(let push, let environment, _) = try #require(effects.first), effects.count == 1 else {
            Issue.record("expected one send, got \(effects)")
            return
        }
        #expect(push.kind == .widgets && !push.kind.acknowledged && environment == .production)
        #expect(push.token == Kinds.extensionToken(1) && push.token != Kinds.device(1), "the extension's own token")
        let answered = run.step(.answered(APNsCompletion(id: push.id, answer: .status(200)), now: now + 500))
        let attempt = PushAttempt(
            token: Kinds.extensionToken(1), sentAt: now, answeredAt: now + 500, status: 200, reason: nil, apnsID: nil)
        let record = AnsweredPush(
            key: Kinds.widgetsKey(1), attempt: attempt, activityType: .charging, environment: .production,
            previousDeliveryAt: nil)
        #expect(answered.first == .record(record) && record.kind == .widgets)
    }
}

// MARK: - The guard

@Suite struct PushKindGuardTests {
    let now = Kinds.now

    func observeRejected(_ rows: [DueTarget], _ reason: String, in deletionGuard: inout MassDeletionGuard) {
        for row in rows {
            deletionGuard.observe(.status(400, reason), for: row)
            deletionGuard.hold(.delete(row.key, registeredAtOrBefore: row.registeredAt), reason: reason, row: row)
        }
    }

    @Test func provenWidgetsRejectedForTheirTopicTripTheGuardForTheirScopeOnly() throws {
        var deletionGuard = MassDeletionGuard(
            everDelivered: [.production, PushScope(environment: .production, kind: .widgets)])
        let widgets = (1...12).map { Kinds.widgets($0, proven: true) }
        let junk = (101...102).map { Kinds.wake($0) }
        observeRejected(widgets, "DeviceTokenNotForTopic", in: &deletionGuard)
        observeRejected(junk, "BadDeviceToken", in: &deletionGuard)
        for seed in 201...220 { deletionGuard.observe(.status(200), for: Kinds.wake(seed, proven: true)) }
        #expect(deletionGuard.trip(in: PushScope(environment: .production, kind: .widgets))?.freshDeployment == false)
        #expect(deletionGuard.trip(in: .production) == nil)
        let ruling = deletionGuard.rule(faults: [:], rules: Kinds.rules, now: now)
        let fault = try #require(ruling.faults.first)
        #expect(ruling.faults.count == 1)
        #expect(fault.kind == .guarded && fault.environment == .production && fault.pushKind == .widgets && fault.pushes == 12)
        #expect(fault.reason == "DeviceTokenNotForTopic")
        #expect(
            ruling.writes
                == junk.map { .delete($0.key, registeredAtOrBefore: $0.registeredAt) }
                + widgets.map { Kinds.held($0, "DeviceTokenNotForTopic") })
        #expect(
            ruling.tallies == [
                AppKind(.wake): SweepTally(removalReasons: ["BadDeviceToken": 2]), AppKind(.widgets): SweepTally(held: 12),
            ])
    }

    /// "Ever delivered" is per kind: a sandbox whose wakes once got a 200 says nothing of its
    /// widgets, whose junk is a fresh deployment's, and the other way round.
    @Test func everDeliveredIsKeptPerKind() throws {
        let widgetsScope = PushScope(environment: .sandbox, kind: .widgets)
        let widgets = (1...10).map { Kinds.widgets($0, .sandbox) }
        let wakes = (101...110).map { Kinds.wake($0, .sandbox) }
        var wakesDelivered = MassDeletionGuard(everDelivered: [.sandbox])
        observeRejected(widgets, "BadDeviceToken", in: &wakesDelivered)
        observeRejected(wakes, "BadDeviceToken", in: &wakesDelivered)
        #expect(wakesDelivered.trip(in: widgetsScope)?.freshDeployment == true)
        #expect(wakesDelivered.trip(in: .sandbox) == nil)
        let ruling = wakesDelivered.rule(faults: [:], rules: Kinds.rules, now: now)
        #expect(ruling.faults.map(\.pushKind) == [.widgets] && ruling.faults.map(\.kind) == [.guarded])
        #expect(
            ruling.writes
                == wakes.map { .delete($0.key, registeredAtOrBefore: $0.registeredAt) }
                + widgets.map {
                    .heldByGuard(
                        $0.key, selectedRegisteredAt: $0.registeredAt, reason: "BadDeviceToken", nextPushAt: now + 1_800_000)
                })

        var widgetsDelivered = MassDeletionGuard(everDelivered: [widgetsScope])
        observeRejected(widgets, "BadDeviceToken", in: &widgetsDelivered)
        observeRejected(wakes, "BadDeviceToken", in: &widgetsDelivered)
        #expect(widgetsDelivered.trip(in: .sandbox)?.freshDeployment == true)
        #expect(widgetsDelivered.trip(in: widgetsScope) == nil)
        #expect(widgetsDelivered.rule(faults: [:], rules: Kinds.rules, now: now).faults.map(\.pushKind) == [nil])
    }

    /// A fault of the widgets topic holds that scope's deletions, also when the environment's host
    /// was lost afterwards (an unreachable host says nothing of the answers that came).
    @Test func aWidgetsTopicFaultHoldsItsDeletionsBesideAnUnreachableHost() {
        var deletionGuard = MassDeletionGuard(everDelivered: [.production, PushScope(environment: .production, kind: .widgets)])
        let widgets = (1...2).map { Kinds.widgets($0) }
        let wakes = (101...102).map { Kinds.wake($0) }
        observeRejected(widgets, "DeviceTokenNotForTopic", in: &deletionGuard)
        observeRejected(wakes, "BadDeviceToken", in: &deletionGuard)
        let topic = SweepFault.raised(.configuration, reason: "BadTopic", in: .production, by: .widgets)
        let down = SweepFault.raised(.unreachable, reason: "CURLE_COULDNT_CONNECT", in: .production, by: .wake)
        #expect(topic.scope == FaultScope(environment: .production, kind: .widgets) && down.scope == .production)
        let ruling = deletionGuard.rule(faults: [topic.scope: topic, down.scope: down], rules: Kinds.rules, now: now)
        #expect(
            ruling.writes
                == wakes.map { .delete($0.key, registeredAtOrBefore: $0.registeredAt) }
                + widgets.map { Kinds.held($0, "BadTopic") })
        #expect(ruling.faults.isEmpty && ruling.touched == [topic.scope: 2])
    }
}

// MARK: - Acks

@Suite struct PushKindAckTests {
    let now = Kinds.now

    /// An ack waiting on a registration is judged against its wake target's pushes alone: a batch
    /// that holds only its widgets push leaves the ack waiting, and beside the wake's push the
    /// widgets push is neither judged nor marked.
    @Test func anAckIsJudgedByTheWakesPushNeverByTheWidgetsPush() throws {
        let registration = Kinds.device(1)
        let widgetsAttempt = PushAttempt(
            token: Kinds.extensionToken(1), sentAt: now - 200, answeredAt: now, status: 200, reason: nil, apnsID: nil)
        let widgetsAnswer = AnsweredPush(
            key: Kinds.widgetsKey(1), attempt: widgetsAttempt, activityType: .charging, environment: .production,
            previousDeliveryAt: nil)
        let widgetsWrite = OutcomeWrite.delivered(
            Kinds.widgetsKey(1), selectedRegisteredAt: Kinds.registeredAt, at: now, nextPushAt: now + 1_900_000)
        let waiting = WaitingAck(
            key: RegistrationKey(token: registration), at: now + 3000, activityType: .charging, environment: .production,
            requestedInterval: nil,
            attempts: [])

        var alone = OutcomeBatch.fold([widgetsWrite], answered: [widgetsAnswer]).rows
        let before = alone
        #expect(OutcomeBatch.judge([waiting], in: &alone, policy: IntervalPolicy()).isEmpty)
        #expect(alone == before && alone.map(\.clearsWaitingAck) == [false], "the ack still waits for its wake")
        #expect(alone.map(\.attempts) == [.prepend(widgetsAttempt)])

        let wakeAttempt = PushAttempt(
            token: registration, sentAt: now - 1000, answeredAt: now - 800, status: 200, reason: nil, apnsID: nil)
        let wakeAnswer = AnsweredPush(
            key: .wake(registration), attempt: wakeAttempt, activityType: .charging, environment: .production,
            previousDeliveryAt: nil)
        let wakeWrite = OutcomeWrite.delivered(
            .wake(registration), selectedRegisteredAt: Kinds.registeredAt, at: now - 800, nextPushAt: now + 299_200)
        var both = OutcomeBatch.fold([widgetsWrite, wakeWrite], answered: [widgetsAnswer, wakeAnswer]).rows
        let counts = OutcomeBatch.judge([waiting], in: &both, policy: IntervalPolicy())
        #expect(Array(counts.keys) == [.wake(registration)])
        #expect(counts[.wake(registration)]?.outcome == .matched)
        #expect(counts[.wake(registration)]?.match?.delayMilliseconds == 3800, "from the wake's 200, not the widgets push's")
        let widgetsRow = try #require(both.first { $0.key.kind == .widgets })
        #expect(!widgetsRow.clearsWaitingAck && widgetsRow.attempts == .prepend(widgetsAttempt))
        #expect(try #require(both.first { $0.key.kind == .wake }).clearsWaitingAck)
    }
}

// MARK: - A sweep

/// The same through a whole sweep against a scripted sender, on every engine (the test's argument).
@Suite struct PushKindSweepTests: SweepTimes {
    /// Registers `seeds` with a widgets target each, at `time`.
    func registerWithWidgets(
        _ seeds: ClosedRange<Int>, _ environment: APNsEnvironment = .production, at time: Int64, in fixture: SweepFixture
    ) throws {
        for seed in seeds {
            try fixture.database.register(
                Kinds.device(seed), environment: environment, now: time,
                expiresAt: time + fixture.configuration.expiryMilliseconds,
                widget: NewRegistration.Widget(token: Kinds.extensionToken(seed)))
        }
    }

    @Test(arguments: TestEngine.every)
    func aWidgetsTopicFaultStopsTheWidgetsAndTheWakesAreDelivered(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "push-kinds")
        try registerWithWidgets(1...10, at: t0, in: fixture)
        let sender = ScriptedSender()
        for seed in 1...10 { sender.script[Kinds.extensionToken(seed).hex] = [.status(400, "BadTopic")] }
        let summary = try fixture.sweep(at: t0 + 1000, sender)
        let scope = FaultScope(environment: .production, kind: .widgets)
        #expect(sender.cancelled == [scope])
        #expect(summary.sent == 10 && summary.held == 0 && summary.failed == 0, "every wake went out and got its 200")
        #expect(summary[.widgets].sent == 0 && summary[.widgets].held == 10 && summary[.widgets].active == 10)
        let fault = try #require(summary.faults.first)
        #expect(summary.faults.count == 1)
        #expect(fault.pushKind == .widgets && fault.environment == .production && fault.reason == "BadTopic")
        #expect(fault.pushes == 10)
        #expect(summary.line.hasSuffix("faults=production/widgets:BadTopic:10"), "\(summary.line)")
        #expect(sender.sent.filter { $0.push.kind == .wake }.count == 10)
        for seed in 1...10 {
            let registration = try #require(try fixture.row(seed))
            #expect(registration.wakeupCount == 1 && registration.lastError == nil)
            let widgets = try #require(registration.target(.widgets))
            #expect(widgets.pushCount == 0 && widgets.lastError == "BadTopic" && widgets.consecutiveFailures == 0)
            #expect(fixture.wroteAbout(widgets.nextPushAt, t0 + 1000 + 30 * minute), "waits one widgets interval")
        }
    }
}
