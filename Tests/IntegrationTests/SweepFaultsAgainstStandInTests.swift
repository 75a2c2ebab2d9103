import Foundation
import LiveActivityDomain
import TestSupport
import Testing

/// SPEC 5's faults as cron meets them: `liveactivity-sweep` against the stand-in over real HTTP/2 +
/// TLS, with the stand-in playing a key restricted to production, junk and wrong hosts, APNs
/// answers that are the same for every push, and misbehaving HTTP/2 (issue #9).
@Suite("Sweep faults against the APNs stand-in")
struct SweepFaultsAgainstStandInTests {
    func lines(_ text: String) -> [Substring] { text.split(separator: "\n") }

    @Test(arguments: TestEngine.real)
    func aProductionOnlyKeyWithSandboxJunkStillPushesEveryProductionToken(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, standIn: StandInStack(workers: 8, keyEnvironments: [.production]))
        try fixture.register(1...100, environment: .production)
        try fixture.register(1001...2000, environment: .sandbox)
        let before = Clock().now()
        // A window the stand-in's 8 workers keep up with (beyond it nginx answers 502 for some).
        let result = try fixture.sweep(["LIVEACTIVITY_APNS_CONCURRENCY": "20"])
        #expect(result.status == 1, "the sandbox fault is reported in the exit code")
        #expect(SweepFixture.field("sent", in: result.stdout) == "100", "\(result.stdout)")
        #expect(SweepFixture.field("faults", in: result.stdout) == "sandbox:BadEnvironmentKeyInToken:1000", "\(result.stdout)")
        #expect(lines(result.stderr).count == 1, "one line for the fault: \(result.stderr)")
        #expect(result.stderr.contains("configuration fault in sandbox: BadEnvironmentKeyInToken"))
        #expect(try (1...100).allSatisfy { try fixture.row($0)?.wakeupCount == 1 })
        #expect(try fixture.count() == 1100, "nothing removed")
        let junk = try #require(try fixture.row(1500))
        #expect(junk.nextPushAt >= before + 290_000, "sandbox rows wait one interval, not every minute")
        #expect(junk.lastError == "BadEnvironmentKeyInToken" && junk.consecutiveFailures == 0)
        #expect(try fixture.received().filter { $0.environment == .sandbox }.count < 1000, "sending to sandbox stopped")
    }

    @Test(arguments: TestEngine.real)
    func aThousandJunkTokensAmongFiftyProvenOnesAreDeleted(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register(1...50)
        #expect(try fixture.sweep().status == 0)
        try fixture.register(1001...2000)
        try fixture.standIn.state().script(tokens: (1001...2000).map(sampleToken), status: 400, reason: "BadDeviceToken")
        let result = try fixture.sweep(["LIVEACTIVITY_TEST_CLOCK_OFFSET": "300"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(SweepFixture.field("removed", in: result.stdout) == "1000", "\(result.stdout)")
        #expect(SweepFixture.field("sent", in: result.stdout) == "50")
        #expect(try fixture.count() == 50 && fixture.provenCount() == 50)
        #expect(result.stderr.isEmpty)
    }

    @Test(arguments: TestEngine.real)
    func aWrongHostForAMatureDeploymentDeletesNothing(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register(1...50)
        #expect(try fixture.sweep().status == 0)
        // The host no longer knows any of them: every push says BadDeviceToken.
        try fixture.standIn.state().script(token: "*", status: 400, reason: "BadDeviceToken", count: 50)
        let result = try fixture.sweep(["LIVEACTIVITY_TEST_CLOCK_OFFSET": "300"])
        #expect(result.status == 1)
        #expect(lines(result.stderr).count == 1 && result.stderr.contains("guard fault in production: BadDeviceToken"))
        #expect(result.stderr.contains("50 of 50 proven tokens"))
        #expect(try fixture.count() == 50)
    }

    @Test(arguments: TestEngine.real)
    func aFreshDeploymentPointedAtTheWrongEnvironmentDeletesNothingAndWaits(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register(1...20, environment: .sandbox)
        try fixture.standIn.state().script(token: "*", status: 400, reason: "BadDeviceToken", count: 20)
        let result = try fixture.sweep()
        #expect(result.status == 1)
        #expect(result.stderr.contains("guard fault in sandbox") && result.stderr.contains("no push got a 200"))
        #expect(try fixture.count() == 20)
        let minuteLater = try fixture.sweep(["LIVEACTIVITY_TEST_CLOCK_OFFSET": "60"])
        #expect(SweepFixture.field("sent", in: minuteLater.stdout) == "0", "they wait one interval, not a minute")
        #expect(try fixture.received().count == 20)
    }

    /// Issue 30 point 1: junk the guard must hold (a quiet sandbox that never delivered) cannot
    /// fill the unproven cap: a held row never proven is deleted at its third hold, and the
    /// holds back off (5, then 10 minutes) so each costs a handful of pushes.
    @Test(arguments: TestEngine.real)
    func heldJunkIsDeletedAtItsThirdHold(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register(1...12, environment: .sandbox)
        try fixture.standIn.state().script(token: "*", status: 400, reason: "BadDeviceToken", count: 1000)
        let first = try fixture.sweep()
        #expect(first.status == 1 && first.stderr.contains("guard fault in sandbox"), "\(first.stderr)")
        #expect(try fixture.count() == 12)
        #expect(try fixture.row(1)?.consecutiveFailures == 1)
        let second = try fixture.sweep(["LIVEACTIVITY_TEST_CLOCK_OFFSET": "300"])
        #expect(SweepFixture.field("sent", in: second.stdout) == "0" && second.status == 1, "\(second.stdout)")
        #expect(try fixture.count() == 12, "held twice: kept")
        #expect(try fixture.received().count == 24)
        // The third hold comes 10 minutes after the second (the back-off doubled): it deletes.
        let early = try fixture.sweep(["LIVEACTIVITY_TEST_CLOCK_OFFSET": "600"])
        #expect(try fixture.received().count == 24, "not due before its back-off: \(early.stdout)")
        let third = try fixture.sweep(["LIVEACTIVITY_TEST_CLOCK_OFFSET": "900"])
        #expect(SweepFixture.field("removed", in: third.stdout) == "12", "\(third.stdout)")
        #expect(try fixture.count() == 0, "the third hold deleted them")
        #expect(try fixture.received().count == 36)
    }

    @Test(arguments: TestEngine.real)
    func junkInAQuietSandboxThatOnceDeliveredIsDeleted(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register([1], environment: .sandbox)
        #expect(try fixture.sweep().status == 0)
        // A minute later the real device is not due; fifty junk tokens are.
        try fixture.register(1001...1050, environment: .sandbox)
        try fixture.standIn.state().script(tokens: (1001...1050).map(sampleToken), status: 400, reason: "BadDeviceToken")
        let result = try fixture.sweep(["LIVEACTIVITY_TEST_CLOCK_OFFSET": "60"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(SweepFixture.field("removed", in: result.stdout) == "50", "\(result.stdout)")
        #expect(SweepFixture.field("faults", in: result.stdout) == nil)
        #expect(try fixture.count() == 1 && fixture.provenCount() == 1)
        #expect(result.stderr.isEmpty)
    }

    @Test(arguments: TestEngine.real)
    func failuresBackOffOverSeveralSweeps(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register([1])
        try fixture.standIn.state().script(token: sampleToken(1), status: 503, reason: "ServiceUnavailable", count: 10)
        var pushedAt: [Int] = []
        for minute in 0...12 {
            let before = try fixture.received(1).count
            // Cron every minute; the provider token cached at minute 0 is reused throughout.
            let result = try fixture.sweep(["LIVEACTIVITY_TEST_CLOCK_OFFSET": String(minute * 60)])
            #expect(result.status == 0, "\(result.stderr)")
            if try fixture.received(1).count > before { pushedAt.append(minute) }
        }
        // 1, 2, 4 minutes, then the 5-minute interval caps the back-off.
        #expect(pushedAt == [0, 1, 3, 7, 12])
        #expect(try fixture.row(1)?.consecutiveFailures == 5)
    }

    @Test(arguments: TestEngine.real)
    func tenThousandPushesAnsweredBadPriorityAreOneLogLine(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register(1...10_000)
        try fixture.standIn.state().script(token: "*", status: 400, reason: "BadPriority", count: 10_000)
        let result = try fixture.sweep()
        #expect(result.status == 1)
        #expect(lines(result.stderr).count == 1, "\(result.stderr.prefix(500))")
        #expect(result.stderr.contains("provider fault in production: BadPriority"))
        #expect(SweepFixture.field("faults", in: result.stdout) == "production:BadPriority:10000")
        #expect(SweepFixture.field("held", in: result.stdout) == "10000")
        #expect(try fixture.count() == 10_000)
    }

    @Test(arguments: TestEngine.real, [(400, "BadPriority"), (429, "TooManyProviderTokenUpdates")])
    func aProviderFaultsUnsentAndUnreadRowsWaitOneIntervalToo(engine: TestEngine, answer: (status: Int, reason: String)) throws {
        let (status, reason) = answer
        let fixture = try SweepFixture(engine)
        try fixture.register(1...200)
        try fixture.standIn.state().script(token: "*", status: status, reason: reason, count: 400)
        // Pages of 20 and 10 pushes queued: the fault stops production before most rows are read.
        let first = try fixture.standIn.sweepInProcess(
            database: fixture.database, extra: ["LIVEACTIVITY_APNS_CONCURRENCY": "5"], duePageSize: 20, lookahead: 10)
        #expect(first.faults.map(\.reason) == [reason] && first.faults.first?.pushes == 200, "\(first.line)")
        #expect(first.held == 200 && first.sent == 0 && first.deferred == 0)
        #expect(try fixture.received().count < 200, "some rows were never sent")
        #expect(try (1...200).allSatisfy { try fixture.row($0)?.lastError == reason })
        // cron's next minute, as a process: nothing is due.
        let minuteLater = try fixture.sweep(["LIVEACTIVITY_TEST_CLOCK_OFFSET": "60"])
        #expect(minuteLater.status == 0, "\(minuteLater.stderr)")
        #expect(SweepFixture.field("sent", in: minuteLater.stdout) == "0", "\(minuteLater.stdout)")
        #expect(SweepFixture.field("skipped", in: minuteLater.stdout) == "200")
    }

    /// A loaded machine mixes answers: some pushes fail (a 5xx, nginx's 502 in front of a slow
    /// stand-in) before or after the fault's first answer; every due row that got no 200 still
    /// waits one interval, as cron's next minute shows.
    @Test(arguments: TestEngine.real, [true, false])
    func failuresAroundAProviderFaultWaitOneIntervalWithIt(engine: TestEngine, failuresFirst: Bool) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register(1...20, ago: 10_000)
        try fixture.register(21...200)
        let state = try fixture.standIn.state()
        let failing = (1...20).map(sampleToken)
        let faulting = (21...200).map(sampleToken)
        // The first answers to arrive are the failures (or the fault), the others a moment later.
        try state.script(tokens: failing, status: 503, reason: "ServiceUnavailable", delayMilliseconds: failuresFirst ? 0 : 300)
        try state.script(
            tokens: faulting, status: 429, reason: "TooManyProviderTokenUpdates", delayMilliseconds: failuresFirst ? 300 : 0)
        let start = Clock().now()
        let first = try fixture.sweep()
        #expect(first.status == 1, "\(first.stderr)")
        #expect(SweepFixture.field("sent", in: first.stdout) == "0", "\(first.stdout)")
        let rows = try (1...200).compactMap { try fixture.row($0) }
        #expect(rows.count == 200)
        #expect(rows.allSatisfy { $0.nextPushAt >= start + 290_000 }, "every row waits one interval: \(first.stdout)")
        let minuteLater = try fixture.sweep(["LIVEACTIVITY_TEST_CLOCK_OFFSET": "60"])
        #expect(SweepFixture.field("sent", in: minuteLater.stdout) == "0", "\(minuteLater.stdout)")
    }

    @Test(arguments: TestEngine.real)
    func aHostWithoutHTTP2IsNotAPNsAndAConfigurationFault(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, standIn: StandInStack(http2: false))
        try fixture.register(1...5)
        let result = try fixture.sweep()
        #expect(result.status == 1)
        #expect(result.stderr.contains("configuration fault in production: NotHTTP2") && result.stderr.contains("APNS_HOST"))
        #expect(try fixture.count() == 5 && fixture.provenCount() == 0)
    }

    @Test(arguments: TestEngine.real)
    func streamsResetAfterTheirAnswerAreAnsweredOnceAndNoneFails(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, standIn: StandInStack(resetAfterAnswer: true))
        try fixture.register(1...1000)
        let result = try fixture.sweep()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(SweepFixture.field("sent", in: result.stdout) == "1000" && SweepFixture.field("failed", in: result.stdout) == "0")
        let answered = try fixture.standIn.nginxAnswered()
        #expect(answered.count == 1000 && Set(answered.map(\.path)).count == 1000)
    }

    @Test(arguments: TestEngine.real)
    func goawayEveryFewHundredStreamsLosesNoPush(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, standIn: StandInStack(workers: 8, goawayAfter: 300))
        try fixture.register(1...3000)
        let result = try fixture.sweep()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(SweepFixture.field("sent", in: result.stdout) == "3000", "\(result.stdout)")
        #expect(SweepFixture.field("failed", in: result.stdout) == "0")
        #expect(Set(try fixture.received().map(\.deviceToken)).count == 3000)
        #expect(Set(try fixture.standIn.state().arrivals().compactMap(\.connection)).count >= 10)
    }
}
