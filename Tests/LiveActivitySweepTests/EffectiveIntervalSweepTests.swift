import APNsHTTP2
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore
@testable import LiveActivitySweep

/// The sweep obeys each registration's effective interval (SPEC 5.3, issue 16): its timing,
/// `apns-expiration`, the back-off cap and the fault holds; and it keeps every final answer in
/// the attempt history, with the 200s in the hour's figures.
@Suite struct EffectiveIntervalSweepTests: SweepTimes {
    @Test(arguments: TestEngine.every)
    func anAskedIntervalSetsTheNextPushAndTheExpiration(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "effective")
        try fixture.register([1], interval: 900, at: t0)
        try fixture.register([2], at: t0)
        try fixture.register([3], interval: 86_400, at: t0)
        let sender = ScriptedSender()
        _ = try fixture.sweep(at: t0 + 1000, sender)
        func expiration(_ seed: Int) -> Int64? { sender.sent.first { $0.push.token.hex == sampleToken(seed) }?.push.expiration }
        let now = (t0 + 1000) / 1000
        #expect(try fixture.row(1).map { $0.nextPushAt - $0.lastPushAt! } == 15 * minute)
        #expect(fixture.wroteAbout((expiration(1) ?? 0) * 1000, (now + 900) * 1000))
        #expect(try fixture.row(2).map { $0.nextPushAt - $0.lastPushAt! } == 5 * minute)
        #expect(fixture.wroteAbout((expiration(2) ?? 0) * 1000, (now + 300) * 1000))
        #expect(try fixture.row(3).map { $0.nextPushAt - $0.lastPushAt! } == 60 * minute, "clamped to LIVEACTIVITY_INTERVAL_MAX")
        #expect(fixture.wroteAbout((expiration(3) ?? 0) * 1000, (now + 3600) * 1000))
    }

    @Test(arguments: TestEngine.every)
    func consecutivePushesKeepTheTimingGuaranteeOfTheEffectiveInterval(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "effective")
        try fixture.register([1], interval: 900, at: t0)
        let sender = ScriptedSender()
        var pushes: [Int64] = []
        for minuteIndex in 0..<61 {
            let time = t0 + Int64(minuteIndex) * minute + Int64(minuteIndex % 4) * 1000
            let before = sender.sent.count
            _ = try fixture.sweep(at: time, sender)
            if sender.sent.count > before { pushes.append(time) }
        }
        #expect(pushes.count == 5, "\(pushes.map { ($0 - t0) / 1000 })")
        for (earlier, later) in zip(pushes, pushes.dropFirst()) {
            #expect(later - earlier >= 900_000 - 30_000 && later - earlier <= 900_000 + 60_000)
        }
    }

    @Test(arguments: TestEngine.every)
    func theBackOffIsCappedByTheEffectiveInterval(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "effective")
        try fixture.register([1], interval: 900, at: t0)
        try fixture.register([2], at: t0)
        let sender = ScriptedSender()
        var time = t0
        for failures in 1...6 {
            sender.script[sampleToken(1)] = [.status(503, "ServiceUnavailable")]
            sender.script[sampleToken(2)] = [.status(503, "ServiceUnavailable")]
            // Both due: the sweep runs when the later of the two is.
            time = max(try #require(try fixture.row(1)).nextPushAt, try #require(try fixture.row(2)).nextPushAt)
            _ = try fixture.sweep(at: time, sender)
            let doubling: Int64 = 60_000 << Int64(failures - 1)
            // The sweep's clock runs on from `time` by the milliseconds the run takes.
            let asked = try #require(try fixture.row(1)).nextPushAt - time - min(doubling, 900_000)
            let typed = try #require(try fixture.row(2)).nextPushAt - time - min(doubling, 300_000)
            #expect(asked >= 0 && asked < 1000, "failure \(failures): \(asked) ms off")
            #expect(typed >= 0 && typed < 1000, "failure \(failures): \(typed) ms off")
        }
    }

    @Test(arguments: TestEngine.every)
    func aFaultHoldsEachUnreachedRowForItsOwnInterval(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "effective")
        try fixture.register(1...30, interval: 1800, at: t0)
        try fixture.register(31...60, at: t0)
        let sender = ScriptedSender()
        sender.batch = 5
        sender.environmentScript[.production] = [.status(400, "BadPriority")]
        var configuration = fixture.configuration
        configuration.intervalPolicy.typeSeconds[.charging] = 300
        let summary = try fixture.sweep(at: t0 + 1000, sender, configuration: configuration)
        #expect(summary.faults.first?.reason == "BadPriority")
        for seed in 1...60 {
            let registration = try #require(try fixture.row(seed))
            let wait = registration.nextPushAt - (t0 + 1000)
            let expected: Int64 = seed <= 30 ? 30 * minute : 5 * minute
            #expect(fixture.wroteAbout(wait, expected), "row \(seed) waits \(wait) ms")
        }
    }

    @Test(arguments: TestEngine.real)
    func everyFinalAnswerIsKeptAndThe200sCountedInTheirHour(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "effective")
        try fixture.register([1, 2, 3, 4], at: t0)
        let sender = ScriptedSender()
        sender.script[sampleToken(1)] = [.answered(APNsResponse(status: 200, apnsID: "5D3B0E62-1C4A-4F44-9B2E-6B2B1E0A7C11"))]
        sender.script[sampleToken(2)] = [.status(503, "ServiceUnavailable")]
        sender.script[sampleToken(3)] = [.failed(.operationTimedOut)]
        sender.script[sampleToken(4)] = [.status(403, "ExpiredProviderToken"), .status(200)]
        _ = try fixture.sweep(at: t0 + 1000, sender)
        #expect(try fixture.history(1).map(\.apnsID) == ["5D3B0E62-1C4A-4F44-9B2E-6B2B1E0A7C11"])
        #expect(try fixture.history(1).first?.status == 200 && fixture.history(1).first?.reason == nil)
        #expect(try fixture.history(2).map(\.status) == [503] && fixture.history(2).map(\.reason) == ["ServiceUnavailable"])
        #expect(try fixture.history(3).map(\.status) == [nil] && fixture.history(3).map(\.reason) == ["CURLE_OPERATION_TIMEDOUT"])
        #expect(try fixture.history(4).map(\.status) == [200], "a retried push counts once, by its final answer")
        let figures = try fixture.database.rows("SELECT sum(delivered), sum(registrations) FROM delivery_hours").first
        #expect(figures == ["2", "2"])
    }

    @Test(arguments: TestEngine.every)
    func aRegistrationKeepsItsLastTwentyAttemptsOverManySweeps(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "effective")
        try fixture.register([1], .debug, at: t0)
        for index in 0..<24 {
            let sender = ScriptedSender()
            if index % 3 == 0 { sender.script[sampleToken(1)] = [.status(500, "InternalServerError")] }
            _ = try fixture.sweep(at: try #require(try fixture.row(1)).nextPushAt + 1, sender)
        }
        let kept = try fixture.history(1)
        #expect(kept.count == 20)
        #expect(zip(kept, kept.dropFirst()).allSatisfy { $0.answeredAt > $1.answeredAt }, "newest first")
    }
}
