import APNsHTTP2
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore
@testable import LiveActivitySweep

/// The sweep's bookkeeping against a scripted sender: what each outcome does to the database, on
/// every engine (the test's argument).
@Suite struct SweepLogicTests: SweepTimes {
    @Test(arguments: TestEngine.every)
    func aNewRegistrationIsPushedAtTheFirstSweepAndThenEveryInterval(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "sweep")
        try fixture.register([1], .charging, at: t0)
        try fixture.register([2], .debug, .sandbox, at: t0)
        let sender = ScriptedSender()
        let first = try fixture.sweep(at: t0 + 5_000, sender)
        #expect(first.sent == 2 && first.active == 2 && first.skipped == 0)
        #expect(sender.sent.map(\.environment).sorted { $0.rawValue < $1.rawValue } == [.production, .sandbox])
        let charging = try #require(try fixture.row(1))
        #expect(charging.wakeupCount == 1)
        #expect(charging.lastPushAt != nil)
        #expect(charging.nextPushAt - charging.lastPushAt! == 5 * minute)
        #expect(try fixture.row(2).map { $0.nextPushAt - $0.lastPushAt! } == minute)

        // One minute on: only the debug registration is due.
        let second = try fixture.sweep(at: t0 + 65_000, sender)
        #expect(second.sent == 1 && second.skipped == 1)
        // Four and a half minutes after the push, within the 30 s slack: the charging one goes too.
        let third = try fixture.sweep(at: t0 + 5_000 + 4 * minute + 31_000, sender)
        #expect(third.sent == 2)
    }

    @Test(arguments: TestEngine.every)
    func consecutivePushesStayWithinTheTimingGuarantee(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "sweep")
        try fixture.register([1], .charging, at: t0)
        let sender = ScriptedSender()
        var pushes: [Int64] = []
        // Cron every minute, each run starting up to 3 s late.
        for minuteIndex in 0..<40 {
            let time = t0 + Int64(minuteIndex) * minute + Int64(minuteIndex % 4) * 1000
            let before = sender.sent.count
            _ = try fixture.sweep(at: time, sender)
            if sender.sent.count > before { pushes.append(time) }
        }
        #expect(pushes.count >= 7)
        for (earlier, later) in zip(pushes, pushes.dropFirst()) {
            #expect(later - earlier >= 5 * minute - 30_000)
            #expect(later - earlier <= 5 * minute + 60_000)
        }
    }

    @Test(arguments: TestEngine.every)
    func registrationsOlderThanTheExpiryAreDeleted(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "sweep")
        try fixture.register([1], at: t0)
        try fixture.register([2], at: t0 + 2 * 3_600_000)
        let summary = try fixture.sweep(at: t0 + 8 * 3_600_000 + 1, ScriptedSender())
        #expect(summary.expired == 1)
        #expect(try fixture.row(1) == nil)
        #expect(try fixture.row(2) != nil)
    }

    @Test(arguments: TestEngine.every)
    func unregisteredTokensAreDeletedUnlessRegisteredAfterTheTimestamp(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "sweep")
        try fixture.register([1], at: t0)
        try fixture.register([2], at: t0 + 10_000)
        let sender = ScriptedSender()
        sender.script[sampleToken(1)] = [.status(410, "Unregistered", timestamp: t0 + 5_000)]
        sender.script[sampleToken(2)] = [.status(410, "ExpiredToken", timestamp: t0 + 5_000)]
        let summary = try fixture.sweep(at: t0 + 20_000, sender)
        #expect(summary.removed == 1)
        #expect(try fixture.row(1) == nil)
        #expect(try fixture.row(2) != nil, "registered again after the 410's timestamp")
        let next = try #require(try fixture.row(2)?.nextPushAt)
        #expect(fixture.wroteAbout(next, t0 + 20_000 + 5 * minute), "tried again one interval later, not every minute")
        #expect(try fixture.row(2)?.lastError == "ExpiredToken")
    }

    @Test(arguments: TestEngine.every)
    func badDeviceTokensAreDeleted(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "sweep")
        for seed in 1...3 { try fixture.register([seed], at: t0) }
        let sender = ScriptedSender()
        sender.script[sampleToken(1)] = [.status(400, "BadDeviceToken")]
        sender.script[sampleToken(2)] = [.status(400, "DeviceTokenNotForTopic")]
        let summary = try fixture.sweep(at: t0 + 1000, sender)
        #expect(summary.removed == 2 && summary.sent == 1)
        #expect(summary.faults.isEmpty)
        #expect(try fixture.row(1) == nil && fixture.row(2) == nil && fixture.row(3) != nil)
    }

    @Test(arguments: TestEngine.every)
    func mostlyBadDeviceTokensFromProvenTokensTripTheMassDeletionGuard(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "sweep")
        for seed in 1...12 { try fixture.register([seed], .charging, .sandbox, at: t0) }
        try fixture.register([100], .charging, .production, at: t0)
        _ = try fixture.sweep(at: t0 + 1000, ScriptedSender())  // every token proven by a 200
        let sender = ScriptedSender()
        for seed in 1...7 { sender.script[sampleToken(seed)] = [.status(400, "BadDeviceToken")] }
        let later = t0 + 1000 + 5 * minute
        let summary = try fixture.sweep(at: later, sender)
        #expect(summary.removed == 0 && summary.held == 7 && summary.sent == 6)
        #expect(summary.faults.map(\.kind) == [.guarded] && summary.faults.first?.environment == .sandbox)
        #expect(summary.failsTheRun)
        #expect(try (1...12).allSatisfy { try fixture.row($0) != nil })
        #expect(try fixture.row(1)?.lastError == "BadDeviceToken")
        #expect(try fixture.allDue([1], at: later + 5 * minute), "waits one interval, not every minute")
        #expect(try fixture.row(1)?.consecutiveFailures == 0)
    }

    @Test(arguments: TestEngine.every)
    func junkInAQuietEnvironmentThatOnceDeliveredIsDeletedAtItsFirstPush(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "sweep")
        try fixture.register([1], .charging, .sandbox, at: t0)
        #expect(try fixture.sweep(at: t0 + 1000, ScriptedSender()).sent == 1)
        // The real device is not due again for five minutes; fifty junk tokens are due now.
        for seed in 100..<150 { try fixture.register([seed], .charging, .sandbox, at: t0 + minute) }
        let sender = ScriptedSender()
        for seed in 100..<150 { sender.script[sampleToken(seed)] = [.status(400, "BadDeviceToken")] }
        let summary = try fixture.sweep(at: t0 + 2 * minute, sender)
        #expect(sender.sent.count == 50)
        #expect(summary.faults.isEmpty && !summary.failsTheRun, "\(summary.faults)")
        #expect(summary.removed == 50 && summary.held == 0)
        #expect(try fixture.row(100) == nil && fixture.row(1) != nil)
    }

    @Test(arguments: TestEngine.every)
    func aFreshEnvironmentStillHoldsItsRejectionsWhileAnotherHasDelivered(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "sweep")
        try fixture.register([1], .charging, .production, at: t0)
        #expect(try fixture.sweep(at: t0 + 1000, ScriptedSender()).sent == 1)
        for seed in 100..<120 { try fixture.register([seed], .charging, .sandbox, at: t0 + minute) }
        let sender = ScriptedSender()
        for seed in 100..<120 { sender.script[sampleToken(seed)] = [.status(400, "BadDeviceToken")] }
        let summary = try fixture.sweep(at: t0 + 2 * minute, sender)
        #expect(summary.faults.map(\.kind) == [.guarded] && summary.faults.first?.environment == .sandbox)
        #expect(summary.removed == 0 && summary.held == 20)
    }

    @Test(arguments: TestEngine.every)
    func anExpiredProviderTokenIsRenewedAndThePushRetriedOnce(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "sweep")
        try fixture.register([1], at: t0)
        try fixture.register([2], at: t0)
        let sender = ScriptedSender()
        sender.batch = 1
        sender.script[sampleToken(1)] = [.status(403, "ExpiredProviderToken"), .status(200)]
        sender.script[sampleToken(2)] = [.status(403, "ExpiredProviderToken"), .status(403, "ExpiredProviderToken")]
        let issued = LockedBox(0)
        let summary = try fixture.sweep(at: t0 + 1000, sender, issued: issued)
        #expect(issued.get() == 2, "one token at start, one renewal")
        #expect(summary.sent == 1 && summary.failed == 0 && summary.held == 1)
        #expect(sender.sent.count == 4)
        #expect(sender.sent[0].providerToken != sender.sent[2].providerToken)
        #expect(try fixture.row(1)?.wakeupCount == 1)
        // A freshly signed token refused as expired: the clock is wrong, a provider fault.
        #expect(summary.faults.map(\.reason) == ["ExpiredProviderToken"] && summary.faults.first?.kind == .provider)
        #expect(try fixture.row(2)?.lastError == "ExpiredProviderToken")
    }

    /// A fault about the key or team stops the whole environment, and so does a wake's topic
    /// fault (BadTopic: the bundle id itself is wrong, for every kind).
    @Test(
        arguments: [
            (403, "InvalidProviderToken", nil), (400, "BadTopic", nil), (403, "BadEnvironmentKeyInToken", nil),
        ] as [(Int, String, PushKind?)], TestEngine.every)
    func aConfigurationFaultStopsItsEnvironmentAndWritesWhatArrived(
        answer: (status: Int, reason: String, kind: PushKind?), engine: TestEngine
    ) throws {
        let (status, reason, kind) = answer
        let fixture = try SweepFixture(engine, label: "sweep")
        for seed in 1...20 { try fixture.register([seed], at: t0 + Int64(seed)) }
        let sender = ScriptedSender()
        sender.batch = 5
        sender.script[sampleToken(3)] = [.status(status, reason)]
        sender.script[sampleToken(1)] = [.status(410, "Unregistered", timestamp: t0 + 999_999)]
        let summary = try fixture.sweep(at: t0 + 1000, sender)
        let fault = try #require(summary.faults.first)
        #expect(summary.faults.count == 1 && fault.kind == .configuration && fault.reason == reason)
        #expect(fault.pushes == 16, "the push that answered it and the 15 never sent")
        #expect(fault.scope == FaultScope(environment: .production, kind: kind))
        #expect(sender.cancelled == [FaultScope(environment: .production, kind: kind)])
        #expect(sender.sent.count == 5)
        #expect(summary.sent == 3 && summary.removed == 1 && summary.held == 16 && summary.failed == 0)
        #expect(try fixture.row(1) == nil, "an outcome that arrived with the fault is written")
        #expect(try [2, 4, 5].allSatisfy { try fixture.row($0)?.wakeupCount == 1 })
        for seed in [3] + Array(6...20) {
            let held = try #require(try fixture.row(seed))
            #expect(held.wakeupCount == 0 && held.lastError == reason && held.consecutiveFailures == 0)
            #expect(fixture.wroteAbout(held.nextPushAt, t0 + 1000 + 5 * minute), "waits one interval, never every minute")
        }
    }

    @Test(arguments: TestEngine.every)
    func serverErrorsAndTransportFailuresBackOffWithFailuresCounted(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "sweep")
        for seed in 1...3 { try fixture.register([seed], at: t0) }
        let sender = ScriptedSender()
        sender.script[sampleToken(1)] = [.status(503, "ServiceUnavailable")]
        sender.script[sampleToken(2)] = [.failed(.operationTimedOut)]
        sender.script[sampleToken(3)] = [.status(429, "TooManyRequests")]
        let summary = try fixture.sweep(at: t0 + 1000, sender)
        #expect(summary.failed == 3 && summary.removed == 0 && summary.faults.isEmpty)
        for seed in 1...3 {
            let registration = try #require(try fixture.row(seed))
            #expect(registration.consecutiveFailures == 1)
            #expect(fixture.wroteAbout(registration.nextPushAt, t0 + 1000 + minute), "the first back-off: one minute")
        }
        #expect(try fixture.row(1)?.lastError == "ServiceUnavailable")
        #expect(try fixture.row(2)?.lastError == "CURLE_OPERATION_TIMEDOUT")
        let next = try fixture.sweep(at: t0 + 61_000, ScriptedSender())
        #expect(next.sent == 3)
        #expect(try fixture.row(1)?.consecutiveFailures == 0)
    }

    @Test(arguments: TestEngine.every)
    func otherClientErrorsAreKeptAndRecorded(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "sweep")
        try fixture.register([1], at: t0)
        let sender = ScriptedSender()
        sender.script[sampleToken(1)] = [.status(400, "BadCollapseId")]
        let summary = try fixture.sweep(at: t0 + 1000, sender)
        #expect(summary.failed == 1 && summary.failureReasons["BadCollapseId"] == 1 && summary.faults.isEmpty)
        #expect(try fixture.row(1)?.lastError == "BadCollapseId")
    }

    @Test(arguments: TestEngine.every)
    func theProviderTokenIsReusedUntilFiftyMinutes(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "sweep")
        try fixture.register([1], .debug, at: t0)
        let issued = LockedBox(0)
        let sender = ScriptedSender()
        _ = try fixture.sweep(at: t0, sender, issued: issued)
        _ = try fixture.sweep(at: t0 + 20 * minute, sender, issued: issued)
        _ = try fixture.sweep(at: t0 + 49 * minute, sender, issued: issued)
        #expect(issued.get() == 1)
        _ = try fixture.sweep(at: t0 + 51 * minute, sender, issued: issued)
        #expect(issued.get() == 2)
        #expect(Set(sender.sent.map(\.providerToken)).count == 2)
    }

    @Test(arguments: TestEngine.real)
    func eachRunIsRecorded(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "sweep")
        try fixture.register([1], at: t0)
        _ = try fixture.sweep(at: t0 + 1000, ScriptedSender())
        // A run's counts are kept per kind (`sweep_run_kinds`): the wake's here.
        #expect(
            try fixture.database.scalar(
                "SELECT count(*) FROM sweep_runs r JOIN sweep_run_kinds k ON k.run_id = r.id "
                    + "WHERE k.push_kind = 'wake' AND k.sent = 1 AND r.outcome = 'ok'") == 1)
    }

    /// Issue 26 point 3 and issue 30 point 1: junk a stranger registers in an environment that
    /// never delivered is held by the guard and backs off (one interval, then two), and its third
    /// hold deletes it, so junk cannot fill the unproven cap; a change of the APNs settings makes
    /// held rows due at once.
    @Test(arguments: TestEngine.every)
    func heldJunkBacksOffIsDeletedAtItsThirdHoldAndIsDueAtOnceWhenTheSettingsChange(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "sweep")
        try fixture.register(1...12, .charging, .sandbox, at: t0)
        var pushedAt: [Int64] = []
        var removed = 0
        for minutes in stride(from: 0, through: 60, by: 1) {
            let sender = ScriptedSender()
            for seed in 1...12 { sender.script[sampleToken(seed)] = [.status(400, "BadDeviceToken")] }
            let summary = try fixture.sweep(at: t0 + 1000 + Int64(minutes) * minute, sender, settingsFingerprint: "settings-1")
            if !sender.sent.isEmpty {
                pushedAt.append(Int64(minutes))
                #expect(summary.faults.map(\.kind) == [.guarded] && summary.held + summary.removed == 12)
                removed += summary.removed
            }
        }
        #expect(pushedAt == [0, 5, 15], "pushed \(pushedAt.count) times before the third hold deleted them")
        #expect(removed == 12)
        #expect(try fixture.database.count() == 0)
        // Held once, then the operator fixes the settings: the held rows are due at the next sweep.
        try fixture.register(13...24, .charging, .sandbox, at: t0 + 100 * minute)
        let junk = ScriptedSender()
        for seed in 13...24 { junk.script[sampleToken(seed)] = [.status(400, "BadDeviceToken")] }
        #expect(try fixture.sweep(at: t0 + 100 * minute + 1000, junk, settingsFingerprint: "settings-1").held == 12)
        let fixed = ScriptedSender()
        let summary = try fixture.sweep(at: t0 + 101 * minute, fixed, settingsFingerprint: "settings-2")
        #expect(fixed.sent.count == 12 && summary.sent == 12, "held rows waited for their back-off")
    }

    /// Issue 48 point 5: a counters' row of an app that is no app's name (planted) counts
    /// nowhere; its name never reaches the summary line as words of its own.
    @Test(arguments: TestEngine.real)
    func aPlantedAppNameNeverReachesTheSummaryLine(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "sweep")
        try fixture.register([1], at: t0)
        try fixture.database.execute(
            "INSERT INTO target_groups (push_kind, environment, activity_type, n, unproven, app, wakeups) "
                + "VALUES ('wake', 'production', 'charging', 5, 5, 'x /tmp/evil.so', 0)")
        let summary = try fixture.sweep(at: t0 + 1000, ScriptedSender())
        #expect(summary.sent == 1)
        #expect(!summary.line.contains("evil") && !summary.line.contains("x /tmp"), "\(summary.line)")
        #expect(summary.line.contains("active=1 sent=1"), "\(summary.line)")
    }

    /// Issue 48 point 7: hosts whose settings differ (a key rotated one host at a time) each keep
    /// their own fingerprint, so their runs do not release every held row in turn; a change of
    /// one host's own settings still does.
    @Test(arguments: TestEngine.every)
    func eachHostKeepsItsOwnSettingsFingerprint(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "sweep")
        try fixture.register(1...12, .charging, .sandbox, at: t0)
        func junk() -> ScriptedSender {
            let sender = ScriptedSender()
            for seed in 1...12 { sender.script[sampleToken(seed)] = [.status(400, "BadDeviceToken")] }
            return sender
        }
        #expect(try fixture.sweep(at: t0 + 1000, junk(), settingsFingerprint: "key-a", host: "host-a").held == 12)
        for minutes in 1...4 {
            let sender = junk()
            let host = minutes.isMultiple(of: 2) ? ("host-a", "key-a") : ("host-b", "key-b")
            _ = try fixture.sweep(
                at: t0 + Int64(minutes) * minute + 1000, sender, settingsFingerprint: host.1, host: host.0)
            #expect(sender.sent.isEmpty, "minute \(minutes), \(host.0): the held rows wait for their back-off")
        }
        let changed = junk()
        _ = try fixture.sweep(at: t0 + 5 * minute - 30_000, changed, settingsFingerprint: "key-b2", host: "host-b")
        #expect(changed.sent.count == 12, "host-b's own settings changed: the held rows are due at once")
    }
}
