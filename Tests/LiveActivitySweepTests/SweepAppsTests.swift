import APNsHTTP2
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore
@testable import LiveActivitySweep

/// Several apps in one sweep (SPEC 5, 6; issue 34 point 3), against the scripted sender on every
/// engine: each app's targets go out with its own bundle id, signed by its own identity; a fault
/// of one app's topic stops that app alone and the other app's pushes of the same sweep go out;
/// an app the sweep no longer serves is passed over with one line and left as it is.
@Suite struct SweepAppsTests: SweepTimes {
    let two = AppName("two")!
    static let twoRoute = AppRoute(
        bundleID: "org.two.app", identity: SigningIdentity(teamID: "TEAM222222", keyID: "KEY2222222"))
    var routes: [AppName: AppRoute] { [.defaultApp: SweepFixture.route, two: Self.twoRoute] }

    @Test(arguments: TestEngine.every)
    func eachAppsPushesGoWithItsBundleIDAndIdentity(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "apps")
        try fixture.register(1...3, at: t0)
        try fixture.register(3...5, at: t0, app: two)  // token 3 under both apps
        let sender = ScriptedSender()
        let summary = try fixture.sweep(at: t0 + minute, sender, routes: routes)
        #expect(summary.sent == 3 && summary[.wake, of: two].sent == 3 && summary.faults.isEmpty, "\(summary.line)")
        let sent = sender.sent.map { ($0.push.token.hex, $0.push.bundleID, $0.identity) }
        for seed in 1...3 {
            #expect(sent.contains { $0 == (sampleToken(seed), "com.example.app", SweepFixture.route.identity) })
        }
        for seed in 3...5 {
            #expect(sent.contains { $0 == (sampleToken(seed), "org.two.app", Self.twoRoute.identity) })
        }
        #expect(sent.count == 6, "token 3 pushed once for each app")
        #expect(Set(sender.sent.compactMap(\.providerToken).map(\.jwt)).count == 2, "one provider token per identity")
        let twos = try fixture.database.registration(PushToken(trusted: sampleToken(3)), app: two)
        let own = try fixture.row(3)
        #expect(twos?.wakeupCount == 1 && own?.wakeupCount == 1)
    }

    @Test(arguments: TestEngine.every)
    func aWrongTopicOfOneAppStopsThatAppAloneAndTheOtherAppsPushesGoOut(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "apptopic")
        try fixture.register(1...10, at: t0)
        try fixture.register(11...20, at: t0, app: two)
        let sender = ScriptedSender()
        for seed in 11...20 { sender.script[sampleToken(seed)] = [.status(400, "TopicDisallowed")] }
        let now = t0 + minute
        let summary = try fixture.sweep(at: now, sender, routes: routes)
        #expect(summary.faults.count == 1, "\(summary.line)")
        let fault = try #require(summary.faults.first)
        #expect(fault.app == two && fault.kind == .configuration && fault.reason == "TopicDisallowed")
        #expect(fault.line.contains("configuration fault in two production"), "\(fault.line)")
        #expect(fault.summary.hasPrefix("two/production:TopicDisallowed:"), "\(fault.summary)")
        #expect(summary.sent == 10, "every push of the default app went out: \(summary.line)")
        for seed in 1...10 { #expect(try fixture.row(seed)?.wakeupCount == 1) }
        // The faulted app's targets are kept, none deleted, each waiting one interval.
        for seed in 11...20 {
            let row = try #require(try fixture.database.registration(PushToken(trusted: sampleToken(seed)), app: two))
            #expect(row.wakeupCount == 0 && row.wake.nextPushAt >= now + 300_000, "\(seed): \(row.wake.nextPushAt - now)")
        }
        #expect(try fixture.database.count() == 20)
    }

    @Test(arguments: TestEngine.every)
    func anAppTheSweepNoLongerServesIsPassedOverWithOneLine(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "appgone")
        try fixture.register(1...2, at: t0)
        try fixture.register(3...4, at: t0, app: AppName("gone")!)
        let sender = ScriptedSender()
        let lines = LockedBox<[String]>([])
        let summary = try fixture.sweep(at: t0 + minute, sender, log: { line in lines.update { $0.append(line) } })
        #expect(summary.sent == 2 && sender.sent.count == 2, "\(summary.line)")
        #expect(lines.get().filter { $0.contains("LIVEACTIVITY_APPS does not name") }.count == 1, "\(lines.get())")
        #expect(lines.get().contains { $0.contains("(gone 2)") }, "\(lines.get())")
        #expect(!lines.get().contains { $0.contains("time budget") }, "\(lines.get())")
        let gone = try fixture.database.registration(PushToken(trusted: sampleToken(3)), app: AppName("gone")!)
        #expect(gone?.wakeupCount == 0 && gone?.wake.nextPushAt == t0, "left as it was")
    }
}

extension SweepAppsTests {
    @Test(arguments: TestEngine.every)
    func anAppsTargetInAnEnvironmentItDoesNotEnableIsLeftAlone(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "appenv")
        try fixture.register(1...1, at: t0)
        // App two enables sandbox alone; a production row of it (stored before its setting changed).
        try fixture.register(2...2, .charging, .production, at: t0, app: two)
        try fixture.register(3...3, .charging, .sandbox, at: t0, app: two)
        var configuration = fixture.configuration
        let settings = Settings(values: [
            "LIVEACTIVITY_APPS": "two", "APNS_ENVIRONMENTS_TWO": "sandbox", "APNS_ENVIRONMENT_TWO": "sandbox",
        ])
        try configuration.readApps(settings)
        let sender = ScriptedSender()
        let summary = try fixture.sweep(at: t0 + minute, sender, configuration: configuration, routes: routes)
        #expect(Set(sender.sent.map(\.push.token.hex)) == [sampleToken(1), sampleToken(3)], "\(summary.line)")
        let stranded = try fixture.database.registration(PushToken(trusted: sampleToken(2)), app: two)
        #expect(stranded?.wakeupCount == 0 && stranded?.wake.nextPushAt == t0, "left as it was")
    }
}

extension SweepAppsTests {
    /// SPEC 7: the summary line counts a further app's pushes apart, after its name, as the
    /// faults name it; the plain names are the default app's, as a deployment of one app has them.
    /// The run history keeps each app's counts apart too.
    @Test(arguments: TestEngine.every)
    func theLineCountsEachAppsPushesApartAndTheHistoryKeepsThem(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "appline")
        try fixture.register(1...2, at: t0)
        try fixture.register(3...5, at: t0, app: two)
        try fixture.database.register(
            PushToken(trusted: sampleToken(6)), now: t0,
            widget: NewRegistration.Widget(token: PushToken(trusted: sampleToken(60))), app: two)
        let sender = ScriptedSender()
        sender.script[sampleToken(5)] = [.status(410, "Unregistered")]
        let summary = try fixture.sweep(at: t0 + minute, sender, routes: routes)
        #expect(summary.sent == 2 && summary.active == 2, "\(summary.line)")
        #expect(summary[.wake, of: two].sent == 3 && summary[.wake, of: two].removed == 1, "\(summary.line)")
        #expect(
            summary.line.contains(
                "s two/active=4 two/sent=3 two/skipped=0 two/removed=1 two/failed=0 two/removals=Unregistered:1"
                    + " two/widgets_active=1 two/widgets_sent=1 two/widgets_skipped=0 two/widgets_removed=0 two/widgets_failed=0"),
            "\(summary.line)")
        #expect(summary.line.hasPrefix("sweep: active=2 sent=2 skipped=0 expired=0 removed=0 failed=0 "), "\(summary.line)")
        #expect(!summary.line.contains(" widgets_"), "the default app has no widgets target: \(summary.line)")
        guard engine != .memory else { return }  // its figures: AppFiguresTests, on every engine
        let kept = try fixture.database.rows(
            "SELECT app, push_kind, active, sent, removed FROM sweep_run_kinds ORDER BY app, push_kind"
        ).map { $0.map { $0 ?? "-" }.joined(separator: " ") }
        #expect(kept == ["default wake 2 2 0", "two wake 4 3 1", "two widgets 1 1 0"], "\(kept)")
    }
}
