import APNsHTTP2
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore
@testable import LiveActivitySweep

/// Faults scoped to their environment, the guard on proven tokens, re-registrations during a
/// sweep, the time budget and disabled environments: the sweep's bookkeeping against a scripted
/// sender (the same through the stand-in is in IntegrationTests), on every engine (the test's
/// argument).
@Suite struct SweepFaultScopeTests: SweepTimes {
    @Test(arguments: TestEngine.every)
    func aSandboxFaultStopsSandboxOnlyAndProductionGoesOn(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "sweep-scope")
        try fixture.register(1...30, .production, at: t0)
        try fixture.register(101...130, .sandbox, at: t0)
        let sender = ScriptedSender()
        sender.environmentScript[.sandbox] = Array(repeating: .status(403, "BadEnvironmentKeyInToken"), count: 30)
        var lines: [String] = []
        let summary = try fixture.sweep(at: t0 + 1000, sender, log: { lines.append($0) })
        #expect(summary.sent == 30, "every production push went out")
        #expect(summary.held == 30 && summary.failed == 0 && summary.removed == 0)
        #expect(summary.faults.count == 1)
        let fault = try #require(summary.faults.first)
        #expect(fault.environment == .sandbox && fault.kind == .configuration && fault.pushes == 30)
        #expect(summary.line.hasSuffix("faults=sandbox:BadEnvironmentKeyInToken:30"))
        #expect(lines.isEmpty, "no line per push; the command prints the fault once")
        #expect(sender.cancelled == [.sandbox])
        #expect(try fixture.allDue(101...130, at: t0 + 1000 + 5 * minute))
    }

    @Test(arguments: TestEngine.every)
    func anUnreachableHostBacksOffItsEnvironmentWithoutFailingTheRun(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "sweep-scope")
        try fixture.register(1...20, .production, at: t0)
        let sender = ScriptedSender()
        sender.environmentScript[.production] = Array(repeating: .unreachable(.couldNotConnect), count: 20)
        let summary = try fixture.sweep(at: t0 + 1000, sender)
        let fault = try #require(summary.faults.first)
        #expect(fault.kind == .unreachable && fault.pushes == 20 && !summary.failsTheRun)
        #expect(summary.failed == 20 && summary.failureReasons == ["CURLE_COULDNT_CONNECT": 20])
        #expect(sender.sent.count == 7, "one batch reached the sender; the rest were cancelled")
        #expect(
            try (1...20).allSatisfy {
                let backedOff = try #require(try fixture.row($0))
                return backedOff.consecutiveFailures == 1 && fixture.wroteAbout(backedOff.nextPushAt, t0 + 1000 + minute)
            })
    }

    @Test(arguments: TestEngine.every)
    func anEnvironmentCanHaveAnUnreachableHostAndTheGuardsFault(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "sweep-scope")
        for seed in 1...20 { try fixture.register([seed], at: t0 + Int64(seed)) }
        let sender = ScriptedSender()
        sender.batch = 20
        for seed in 1...12 { sender.script[sampleToken(seed)] = [.status(400, "BadDeviceToken")] }
        for seed in 13...20 { sender.script[sampleToken(seed)] = [.unreachable(.couldNotConnect)] }
        let summary = try fixture.sweep(at: t0 + 1000, sender)
        #expect(summary.faults.map(\.kind) == [.unreachable, .guarded])
        #expect(summary.faults.map(\.pushes) == [8, 12])
        #expect(summary.removed == 0 && summary.failed == 8 && summary.held == 12)
        try fixture.database.record(summary)
    }

    @Test(arguments: TestEngine.every)
    func junkTokensAmongProvenOnesAreDeletedAndTheRunSucceeds(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "sweep-scope")
        try fixture.register(1...50, at: t0)
        _ = try fixture.sweep(at: t0 + 1000, ScriptedSender())  // 50 proven tokens
        try fixture.register(1001...2000, at: t0 + 2 * minute)
        let sender = ScriptedSender()
        sender.batch = 100
        for seed in 1001...2000 { sender.script[sampleToken(seed)] = [.status(400, "BadDeviceToken")] }
        let summary = try fixture.sweep(at: t0 + 1000 + 5 * minute, sender)
        #expect(summary.removed == 1000 && summary.sent == 50 && summary.faults.isEmpty && !summary.failsTheRun)
        #expect(try (1...50).allSatisfy { try fixture.row($0) != nil })
        #expect(try fixture.row(1500) == nil)
    }

    @Test(arguments: TestEngine.every)
    func aRetriedPushCountsOnceByItsFinalAnswer(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "sweep-scope")
        try fixture.register(1...12, at: t0)
        _ = try fixture.sweep(at: t0 + 1000, ScriptedSender())
        let sender = ScriptedSender()
        for seed in 1...12 {
            sender.script[sampleToken(seed)] = [.status(403, "ExpiredProviderToken"), .status(400, "BadDeviceToken")]
        }
        let summary = try fixture.sweep(at: t0 + 1000 + 5 * minute, sender)
        #expect(sender.sent.count == 24)
        #expect(summary.faults.map(\.kind) == [.guarded], "12 of 12 proven tokens rejected, not 12 of 24 answers")
        #expect(summary.removed == 0)
        #expect(try (1...12).allSatisfy { try fixture.row($0) != nil })
    }

    @Test(arguments: TestEngine.every)
    func aRegistrationMadeDuringTheSweepStaysDueAtOnce(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "sweep-scope")
        try fixture.register([1, 2, 3], at: t0)
        _ = try fixture.sweep(at: t0 + 1000, ScriptedSender())
        let sender = ScriptedSender()
        sender.batch = 3
        sender.script[sampleToken(1)] = [.status(503, "ServiceUnavailable")]
        sender.script[sampleToken(2)] = [.status(400, "BadCollapseId")]
        let later = t0 + 1000 + 5 * minute
        sender.beforeBatch = { [fixture] in
            // The app registers the three again while their pushes are in flight.
            try? fixture.register([1, 2, 3], at: later + 500)
        }
        let summary = try fixture.sweep(at: later, sender)
        #expect(summary.failed == 2 && summary.sent == 1)
        for seed in 1...3 {
            let registration = try #require(try fixture.row(seed))
            #expect(abs(registration.nextPushAt - (later + 500)) < 1000, "due at once, as the new registration asked")
            #expect(registration.consecutiveFailures == 0 && registration.lastError == nil)
        }
    }

    @Test(arguments: TestEngine.every)
    func pastTheBudgetNothingNewIsSentAndTheRestIsDueNextRun(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "sweep-scope")
        try fixture.register(1...50, at: t0)
        let sender = ScriptedSender()
        sender.batch = 10
        var polls = 0
        let summary = try fixture.sweep(
            at: t0 + 1000, sender,
            stopRequested: {
                polls += 1
                return polls > 2
            })
        #expect(summary.sent == 20 && summary.deferred == 30 && summary.failed == 0 && !summary.failsTheRun)
        #expect(summary.line.contains(" deferred=30"))
        let untouched = try (1...50).compactMap { try fixture.row($0) }.filter { $0.wakeupCount == 0 }
        #expect(untouched.count == 30 && untouched.allSatisfy { abs($0.nextPushAt - t0) < 1000 && $0.lastError == nil })
        #expect(try fixture.sweep(at: t0 + 61_000, ScriptedSender()).sent == 30, "the next run does the rest")
    }

    @Test(arguments: TestEngine.every)
    func rowsTheBudgetLeftInAFaultedEnvironmentWaitWithIt(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "sweep-scope")
        try fixture.register(1...20, .sandbox, at: t0)
        try fixture.register(101...120, .production, at: t0 + 1)
        let sender = ScriptedSender()
        sender.batch = 10
        sender.inFlight = 10
        sender.environmentScript[.sandbox] = Array(repeating: .status(400, "BadTopic"), count: 20)
        // Stopped at once: ten sandbox pushes are in flight and answer the fault after it.
        let summary = try fixture.sweep(at: t0 + 1000, sender, stopRequested: { true })
        #expect(sender.sent.count == 10)
        #expect(summary.faults.map(\.pushes) == [20] && summary.held == 20, "the ten answered and the ten left")
        #expect(summary.deferred == 20 && summary.sent == 0, "production, unfaulted, is due next run")
        #expect(try fixture.allDue(1...20, at: t0 + 1000 + 5 * minute))
        #expect(try (101...120).allSatisfy { abs(try #require(try fixture.row($0)).nextPushAt - (t0 + 1)) < 1000 })
    }

    @Test(arguments: [(400, "BadPriority"), (429, "TooManyProviderTokenUpdates")], TestEngine.every)
    func aProviderFaultHoldsEveryDueRowOneIntervalAlsoThoseNeverRead(
        answer: (status: Int, reason: String), engine: TestEngine
    ) throws {
        let (status, reason) = answer
        let fixture = try SweepFixture(engine, label: "sweep-scope")
        try fixture.register(1...200, at: t0)
        let sender = ScriptedSender()
        sender.environmentScript[.production] = Array(repeating: .status(status, reason), count: 200)
        // Pages of 25 and 10 queued: the fault stops production with most rows never read.
        let summary = try fixture.sweep(at: t0 + 1000, sender, duePageSize: 25, lookahead: 10)
        #expect(sender.sent.count == 7, "one batch was sent, the rest cancelled or never read")
        #expect(summary.faults.map(\.pushes) == [200] && summary.held == 200 && summary.deferred == 0)
        #expect(try fixture.allDue(1...200, at: t0 + 1000 + 5 * minute))
        #expect(
            try (1...200).allSatisfy { try fixture.row($0)?.lastError == reason && fixture.row($0)?.consecutiveFailures == 0 })
        let minuteLater = ScriptedSender()
        #expect(try fixture.sweep(at: t0 + 61_000, minuteLater).sent == 0 && minuteLater.sent.isEmpty, "they wait one interval")
    }

    @Test(arguments: TestEngine.every)
    func aRegistrationMadeDuringAFaultedSweepIsPushedAtTheNextSweep(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "sweep-scope")
        try fixture.register(1...200, at: t0)
        let sender = ScriptedSender()
        sender.environmentScript[.production] = Array(repeating: .status(400, "BadPriority"), count: 200)
        // While the first pushes are in flight, the app registers two of the rows not yet read again.
        var reregistered = false
        sender.beforeBatch = { [fixture] in
            guard !reregistered else { return }
            reregistered = true
            try? fixture.register([150, 151], at: t0 + 1500)
        }
        let summary = try fixture.sweep(at: t0 + 1000, sender, duePageSize: 25, lookahead: 10)
        #expect(summary.faults.first?.reason == "BadPriority")
        for seed in [150, 151] {
            let registration = try #require(try fixture.row(seed))
            #expect(registration.nextPushAt == t0 + 1500 && registration.lastError == nil, "still due, as it registered")
        }
        #expect(try fixture.allDue(1...149, at: t0 + 1000 + 5 * minute))
        let minuteLater = ScriptedSender()
        #expect(try fixture.sweep(at: t0 + 61_000, minuteLater).sent == 2)
        #expect(Set(minuteLater.sent.map(\.push.token.hex)) == [sampleToken(150), sampleToken(151)])
    }

    @Test(arguments: TestEngine.every)
    func stoppedAfterAFaultTheFaultedRowsWaitAndTheOthersStayDue(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "sweep-scope")
        try fixture.register(1...100, .production, at: t0)
        try fixture.register(101...200, .sandbox, at: t0 + 1)
        let sender = ScriptedSender()
        sender.batch = 10
        sender.environmentScript[.production] = Array(repeating: .status(400, "BadPriority"), count: 100)
        var polls = 0
        let summary = try fixture.sweep(
            at: t0 + 1000, sender,
            stopRequested: {
                polls += 1
                return polls > 3
            }, duePageSize: 25, lookahead: 20)
        #expect(summary.faults.map(\.environment) == [.production] && summary.faults.first?.pushes == 100)
        #expect(summary.held == 100)
        #expect(try fixture.allDue(1...100, at: t0 + 1000 + 5 * minute))
        let sandbox = try (101...200).compactMap { try fixture.row($0) }
        let pushed = sandbox.filter { $0.wakeupCount == 1 }
        let untouched = sandbox.filter { $0.wakeupCount == 0 }
        #expect(pushed.count == summary.sent && untouched.count == summary.deferred && pushed.count + untouched.count == 100)
        #expect(untouched.allSatisfy { $0.nextPushAt == t0 + 1 && $0.lastError == nil }, "due at the next run")
        #expect(try fixture.sweep(at: t0 + 61_000, ScriptedSender()).sent == untouched.count)
    }

    @Test(arguments: TestEngine.every)
    func rowsOfAnEnvironmentNoLongerEnabledAreNotPushedAndExpire(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "sweep-scope")
        try fixture.register(1...3, .production, at: t0)
        try fixture.register(11...13, .sandbox, at: t0)
        var productionOnly = fixture.configuration
        productionOnly.enabledEnvironments = [.production]
        let sender = ScriptedSender()
        let summary = try fixture.sweep(at: t0 + 1000, sender, configuration: productionOnly)
        #expect(summary.sent == 3 && summary.skipped == 3)
        #expect(sender.sent.allSatisfy { $0.environment == .production })
        #expect(try fixture.row(11)?.wakeupCount == 0)
        let expired = try fixture.sweep(at: t0 + 8 * 3_600_000 + 1, ScriptedSender(), configuration: productionOnly)
        #expect(expired.expired == 6)
        #expect(try fixture.row(11) == nil)
    }

    @Test(arguments: TestEngine.every)
    func tenThousandProviderFaultsAreOneFaultAndNoLogLines(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "sweep-scope")
        try fixture.register(1...10_000, at: t0)
        let sender = ScriptedSender()
        sender.batch = 100
        sender.environmentScript[.production] = Array(repeating: .status(400, "BadPriority"), count: 100)
        var lines: [String] = []
        let summary = try fixture.sweep(at: t0 + 1000, sender, log: { lines.append($0) })
        #expect(lines.isEmpty)
        #expect(summary.faults.count == 1 && summary.faults.first?.pushes == 10_000 && summary.held == 10_000)
        #expect(summary.failureReasons.isEmpty, "the reason is the fault's, counted once")
    }
}
