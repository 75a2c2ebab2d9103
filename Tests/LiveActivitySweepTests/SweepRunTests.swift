import APNsHTTP2
import LiveActivityDomain
import TestSupport
import Testing

@testable import LiveActivitySweep

/// The sweep's run as a pure step: an event in, the effects out - no database, no sender, no
/// clock. Each decision, the retry once, faults scoped to their environment, and the deadline.
@Suite struct SweepRunTests {
    let now: Int64 = 1_800_000_000_000
    let started: Int64 = 1_799_999_999_000
    let origin = ContinuousClock.now
    let rules = OutcomeRules(policy: IntervalPolicy(typeSeconds: [.charging: 300, .debug: 60]))
    let route = AppRoute(bundleID: "com.example.app", identity: SigningIdentity(teamID: "TEAM123456", keyID: "KEY1234567"))
    var bundleID: String { route.bundleID }

    func makeRun(everDelivered: Set<PushScope> = []) -> SweepRun {
        SweepRun(
            rules: rules, routes: [.defaultApp: route], deletionGuard: MassDeletionGuard(everDelivered: everDelivered),
            startedAt: started,
            deadline: Deadline(sendUntil: origin + .seconds(50), drain: .seconds(5)))
    }

    func row(_ seed: Int, _ environment: APNsEnvironment = .production, proven: Bool = false, registeredAt: Int64? = nil)
        -> DueTarget
    {
        DueTarget(
            wake: PushToken(trusted: sampleToken(seed)), activityType: .charging, environment: environment,
            registeredAt: registeredAt ?? started - 60_000, proven: proven)
    }

    /// Reads `row` into `run` and returns the id of the push it sent.
    func sent(_ row: DueTarget, in run: inout SweepRun) throws -> Int {
        let effects = run.step(.due(row, now: now))
        guard case .send(let push, let environment, let identity) = try #require(effects.first), effects.count == 1 else {
            Issue.record("expected one send, got \(effects)")
            return -1
        }
        #expect(environment == row.environment && push.token == row.token && identity == route.identity)
        #expect(push.bundleID == route.bundleID)
        return push.id
    }

    func held(_ row: DueTarget, _ reason: String) -> SweepRun.Effect {
        .write(.held(.wake(row.token), selectedRegisteredAt: row.registeredAt, reason: reason, nextPushAt: now + 300_000))
    }

    @Test func aDueRowIsSentToExpireWhenTheNextPushReplacesIt() throws {
        var run = makeRun()
        let due = row(1)
        #expect(
            run.step(.due(due, now: now))
                == [
                    .send(
                        APNsPush(id: 0, token: due.token, bundleID: bundleID, expiration: (now + 300_000) / 1000),
                        to: .production,
                        as: route.identity)
                ])
        #expect(try sent(row(2), in: &run) == 1, "each push its own id")
    }

    @Test func aRowThatAskedForItsOwnIntervalExpiresByIt() {
        var run = makeRun()
        var due = row(1)
        due.requestedInterval = 900
        #expect(
            run.step(.due(due, now: now))
                == [
                    .send(
                        APNsPush(id: 0, token: due.token, bundleID: bundleID, expiration: (now + 900_000) / 1000),
                        to: .production,
                        as: route.identity)
                ])
    }

    @Test func eachAnswerIsDecidedByTheRulesAndCounted() throws {
        var run = makeRun()
        let delivered = row(1)
        let failing = row(2)
        let first = try sent(delivered, in: &run)
        let second = try sent(failing, in: &run)
        #expect(
            run.step(.answered(APNsCompletion(id: first, answer: .status(200)), now: now)).actions
                == [
                    .write(
                        .delivered(
                            .wake(
                                delivered.token), selectedRegisteredAt: delivered.registeredAt, at: now, nextPushAt: now + 300_000
                        ))
                ])
        #expect(
            run.step(.answered(APNsCompletion(id: second, answer: .status(503, "ServiceUnavailable")), now: now)).actions
                == [
                    .write(
                        .failed(
                            .wake(
                                failing.token), selectedRegisteredAt: failing.registeredAt, reason: "ServiceUnavailable",
                            nextPushAt: now + 60_000))
                ])
        #expect(run.tallies[.wake] == SweepTally(sent: 1, failed: 1, failureReasons: ["ServiceUnavailable": 1]))
        #expect(run.step(.answered(APNsCompletion(id: first, answer: .status(200)), now: now)).actions.isEmpty, "decided once")
    }

    @Test func anExpiredProviderTokenRenewsTheTokenOnceAndResendsEachPushOnce() throws {
        var run = makeRun()
        let one = row(1)
        let two = row(2)
        let first = try sent(one, in: &run)
        let second = try sent(two, in: &run)
        let expired = APNsAnswer.status(403, "ExpiredProviderToken")
        let resend = APNsPush(id: first, token: one.token, bundleID: bundleID, expiration: (now + 300_000) / 1000)
        #expect(
            run.step(.answered(APNsCompletion(id: first, answer: expired), now: now))
                == [.renewProviderToken(route.identity), .send(resend, to: .production, as: route.identity)])
        // The second push's expired answer is resent with the token already renewed this sweep.
        #expect(run.step(.answered(APNsCompletion(id: second, answer: expired), now: now)).count == 1)
        #expect(run.tallies[.wake] == SweepTally(), "a retry's first answer is not counted")
        // The retry's own ExpiredProviderToken: the clock is wrong, a provider fault.
        let effects = run.step(.answered(APNsCompletion(id: first, answer: expired), now: now)).actions
        #expect(effects == [.stopReading(.production), .cancel(.production), held(one, "ExpiredProviderToken")])
        #expect(run.faults.byScope[.production]?.kind == .provider && run.faults.byScope[.production]?.pushes == 1)
    }

    @Test func aFaultStopsItsEnvironmentOnlyAndHoldsWhatItTouched() throws {
        var run = makeRun()
        let sandbox = (1...3).map { row($0, .sandbox) }
        let ids = try sandbox.map { try sent($0, in: &run) }
        let production = try sent(row(10), in: &run)
        let fault = APNsAnswer.status(403, "BadEnvironmentKeyInToken")
        #expect(
            run.step(.answered(APNsCompletion(id: ids[0], answer: fault), now: now)).actions
                == [.stopReading(.sandbox), .cancel(.sandbox), held(sandbox[0], "BadEnvironmentKeyInToken")])
        // The sender dropped one; the other answers alike after it.
        #expect(run.step(.cancelled([ids[1]], now: now)) == [held(sandbox[1], "BadEnvironmentKeyInToken")])
        #expect(
            run.step(.answered(APNsCompletion(id: ids[2], answer: fault), now: now)).actions
                == [held(sandbox[2], "BadEnvironmentKeyInToken")], "the fault is raised once")
        #expect(run.step(.due(row(4, .sandbox), now: now)) == [held(row(4, .sandbox), "BadEnvironmentKeyInToken")])
        #expect(try sent(row(11), in: &run) > production, "production goes on")
        #expect(
            run.faults.byScope[.sandbox]?.pushes == 4
                && run.faults.covering(PushScope(environment: .production, kind: .wake)) == nil)
        #expect(run.tallies[.wake].held == 4 && run.faults.stoppedScopes.map(\.scope) == [.sandbox])
    }

    @Test func aFailureAnsweredAfterTheFaultWaitsOneIntervalNotTheBackOff() throws {
        var run = makeRun()
        let first = row(1)
        let second = row(2)
        let ids = try [first, second].map { try sent($0, in: &run) }
        _ = run.step(.answered(APNsCompletion(id: ids[0], answer: .status(429, "TooManyProviderTokenUpdates")), now: now))
        // Its answer had come before the cancel took the pushes back (a loaded machine's larger poll).
        #expect(
            run.step(.answered(APNsCompletion(id: ids[1], answer: .status(502)), now: now)).actions
                == [held(second, "TooManyProviderTokenUpdates")])
        #expect(run.tallies[.wake] == SweepTally(held: 2) && run.faults.byScope[.production]?.pushes == 2)
    }

    @Test func failuresAnsweredBeforeTheFaultWaitOneIntervalToo() throws {
        var run = makeRun()
        let early = row(1)
        let faulting = row(2)
        let ids = try [early, faulting].map { try sent($0, in: &run) }
        let backOff = OutcomeWrite.failed(
            .wake(
                early.token), selectedRegisteredAt: early.registeredAt, reason: "ServiceUnavailable", nextPushAt: now + 60_000)
        #expect(
            run.step(.answered(APNsCompletion(id: ids[0], answer: .status(503, "ServiceUnavailable")), now: now)).actions
                == [.write(backOff)], "no fault yet: it backs off")
        _ = run.step(.answered(APNsCompletion(id: ids[1], answer: .status(400, "BadPriority")), now: now))
        #expect(run.step(.finish(now: now)) == [held(early, "BadPriority")], "written after its back-off, so it wins")
        #expect(run.tallies[.wake] == SweepTally(held: 2), "each push counted once: held, no longer failed")
        // BadPriority is the same for every push: it stops production.
        #expect(run.faults.byScope[.production]?.pushes == 2)
    }

    @Test func failuresBeforeAnUnreachableHostOrInAnotherEnvironmentKeepTheirBackOff() throws {
        var run = makeRun()
        let production = row(1)
        let sandbox = row(2, .sandbox)
        let ids = try [production, sandbox].map { try sent($0, in: &run) }
        _ = run.step(.answered(APNsCompletion(id: ids[0], answer: .status(503, "ServiceUnavailable")), now: now))
        _ = run.step(.answered(APNsCompletion(id: ids[1], answer: .status(400, "BadTopic")), now: now))
        #expect(run.step(.finish(now: now)).isEmpty, "production had no fault")
        #expect(run.tallies[.wake] == SweepTally(failed: 1, held: 1, failureReasons: ["ServiceUnavailable": 1]))
    }

    @Test func anUnreachableHostIsReadOnAndItsRowsBackOff() throws {
        var run = makeRun()
        let first = row(1)
        let id = try sent(first, in: &run)
        let effects = run.step(.answered(APNsCompletion(id: id, answer: .unreachable(.couldNotConnect)), now: now)).actions
        let backOff = OutcomeWrite.failed(
            .wake(
                first.token), selectedRegisteredAt: first.registeredAt, reason: "CURLE_COULDNT_CONNECT", nextPushAt: now + 60_000)
        #expect(effects == [.cancel(.production), .write(backOff)], "not .stopReading: each row backs off on its own")
        #expect(run.faults.stoppedScopes.isEmpty && run.faults.reported.map(\.kind) == [.unreachable])
    }

    @Test func aRowRegisteredDuringTheSweepIsCountedAgainstTheFaultButLeftDue() throws {
        var run = makeRun()
        let id = try sent(row(1), in: &run)
        _ = run.step(.answered(APNsCompletion(id: id, answer: .status(400, "BadPriority")), now: now)).actions
        #expect(run.step(.due(row(2, registeredAt: started + 1), now: now)).isEmpty)
        #expect(
            run.faults.covering(PushScope(environment: .production, kind: .wake))?.pushes == 2 && run.tallies[.wake].held == 1)
    }

    @Test func pastTheBudgetNothingNewIsSentAndWhatIsLeftIsDueNextRun() throws {
        var run = makeRun()
        let ids = try (1...3).map { try sent(row($0), in: &run) }
        #expect(run.step(.tick(origin + .seconds(49))).isEmpty)
        #expect(run.step(.tick(origin + .seconds(50))) == [.withdrawQueued])
        #expect(run.step(.tick(origin + .seconds(51))).isEmpty, "withdrawn once")
        _ = run.step(.unsent([ids[1], ids[2]]))
        // An answer after the budget that asks for a retry is set aside too, not sent.
        #expect(
            run.step(.answered(APNsCompletion(id: ids[0], answer: .status(403, "ExpiredProviderToken")), now: now)).actions
                .isEmpty)
        #expect(run.step(.due(row(4), now: now)).isEmpty, "a row read after the budget is not sent")
        #expect(run.step(.finish(now: now)).isEmpty)
        #expect(run.leftForNextRun == [AppKind(.wake): 4] && run.tallies[.wake] == SweepTally())
        // Past the drain (and a moment's grace) what is still in flight is dropped.
        #expect(run.step(.tick(origin + .seconds(55) + .milliseconds(500))) == [.dropInFlight])
    }

    @Test func aStopEndsSendingAsTheBudgetDoesWithTheDrainFromNow() throws {
        var run = makeRun()
        _ = try sent(row(1), in: &run)
        let at = origin + .seconds(10)
        var moved = Deadline(sendUntil: origin + .seconds(50), drain: .seconds(5))
        moved.stop(at: at)
        #expect(run.step(.stopRequested(at: at)) == [.setDeadline(moved)])
        #expect(run.stopWasRequested && run.deadline.sendUntil == at && run.deadline.finishBy == at + .seconds(5))
        #expect(run.step(.tick(at)) == [.withdrawQueued])
        #expect(run.stoppedSending)
    }

    @Test func pushesSetAsideInAFaultedEnvironmentWaitWithItAtTheEnd() throws {
        var run = makeRun()
        let first = row(1, .sandbox)
        let second = row(2, .sandbox)
        let ids = try [first, second].map { try sent($0, in: &run) }
        _ = run.step(.tick(origin + .seconds(50)))
        _ = run.step(.unsent([ids[1]]))
        _ = run.step(.answered(APNsCompletion(id: ids[0], answer: .status(400, "BadTopic")), now: now)).actions
        #expect(run.step(.finish(now: now)) == [held(second, "BadTopic")])
        #expect(run.leftForNextRun.isEmpty && run.faults.covering(PushScope(environment: .sandbox, kind: .wake))?.pushes == 2)
    }

    @Test func theGuardRulesOnTheDeletionsOnceEveryAnswerIsIn() throws {
        var run = makeRun(everDelivered: [.production])
        let rows = (1...10).map { row($0, proven: true) }
        for due in rows {
            let id = try sent(due, in: &run)
            #expect(run.step(.answered(APNsCompletion(id: id, answer: .status(400, "BadDeviceToken")), now: now)).actions.isEmpty)
        }
        let effects = run.step(.finish(now: now))
        #expect(effects == rows.map { held($0, "BadDeviceToken") })
        #expect(run.faults.reported.map(\.kind) == [.guarded] && run.faults.reported.first?.pushes == 10)
        #expect(run.tallies[.wake].held == 10)
    }

    @Test func theBudgetMakesTheOneDeadlineTheRunAndTheSenderGoBy() {
        let deadline = SweepBudget(seconds: 20).deadline(startingAt: origin)
        #expect(deadline.sendUntil == origin + .seconds(20))
        #expect(deadline.finishBy == origin + .seconds(20 + SweepBudget.drainSeconds))
    }

    @Test func eachFinalAnswerIsRecordedOnceWithWhenItsLastPushWasSent() throws {
        var run = makeRun()
        let due = row(1)
        let id = try sent(due, in: &run)
        let later = now + 2000
        #expect(
            run.step(.answered(APNsCompletion(id: id, answer: .status(403, "ExpiredProviderToken")), now: later))
                .filter { if case .record = $0 { true } else { false } }.isEmpty, "a retry's first answer is not final")
        let answeredAt = later + 500
        let effects = run.step(.answered(APNsCompletion(id: id, answer: .status(503, "ServiceUnavailable")), now: answeredAt))
        let attempt = PushAttempt(
            token: due.token, sentAt: later, answeredAt: answeredAt, status: 503, reason: "ServiceUnavailable", apnsID: nil)
        #expect(
            effects.first
                == .record(
                    AnsweredPush(
                        key: .wake(due.token), attempt: attempt, activityType: .charging, environment: .production,
                        previousDeliveryAt: nil)))
    }
}

extension Array where Element == SweepRun.Effect {
    /// The effects but the records of final answers (tested on their own).
    var actions: [SweepRun.Effect] { filter { if case .record = $0 { false } else { true } } }
}
