import Foundation
import LiveActivityDomain
import LiveActivityStore
import TestSupport
import Testing

/// iOS 26 widget pushes (issue 31) as cron and the app meet them: a registration's widgets target
/// pushed beside its wake target by `liveactivity-sweep` over real HTTP/2 + TLS to the stand-in,
/// which judges them as APNs does; its answers reach that target alone; a fault of the widgets
/// topic stops widgets and wakes go on.
@Suite("Widgets against the APNs stand-in")
struct WidgetsAgainstStandInTests {
    func lines(_ text: String) -> [Substring] { text.split(separator: "\n") }

    @Test(arguments: TestEngine.real)
    func aWidgetsPushGoesAsApplesOwnRequestBesideTheWake(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register(1...3, widgets: true)
        let before = Clock().now() / 1000
        let result = try fixture.sweep()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(SweepFixture.field("sent", in: result.stdout) == "3", "\(result.stdout)")
        #expect(SweepFixture.field("widgets_sent", in: result.stdout) == "3", "\(result.stdout)")
        #expect(SweepFixture.field("widgets_active", in: result.stdout) == "3", "\(result.stdout)")
        let bundle = fixture.standIn.key.bundleID
        for seed in 1...3 {
            let wake = try #require(try fixture.received(seed).first)
            #expect(wake.status == 200 && wake.topic == bundle && wake.pushType == "background" && wake.priority == "5")
            #expect((Int64(wake.expiration ?? "") ?? 0) >= before + 300, "a wake expires when the next one replaces it")
            #expect(wake.payload == #"{"aps":{"content-available":1},"liveActivityWakeup":true}"#)
            let widget = try #require(try fixture.standIn.state().received(token: SweepFixture.widgetToken(seed)).first)
            #expect(widget.status == 200, "\(widget.reason ?? "")")
            #expect(widget.topic == bundle + ".push-type.widgets" && widget.pushType == "widgets")
            #expect(widget.priority == nil && widget.expiration == nil, "no apns-priority and no apns-expiration")
            #expect(widget.payload == #"{"aps":{"content-changed":true}}"#)
            let row = try #require(try fixture.row(seed))
            let target = try #require(row.target(.widgets))
            #expect(target.pushCount == 1 && target.lastPushAt != nil && row.wakeupCount == 1)
            // Its next push is one widgets interval on (1800 s), plus the slack and its spread.
            let after = try #require(target.lastPushAt)
            #expect(target.nextPushAt >= after + 1_830_000 && target.nextPushAt <= after + 1_830_000 + 180_000)
        }
        // Five minutes on the wakes are due again; the widgets are not.
        let later = try fixture.sweep(["LIVEACTIVITY_TEST_CLOCK_OFFSET": "300"])
        #expect(
            SweepFixture.field("sent", in: later.stdout) == "3" && SweepFixture.field("widgets_sent", in: later.stdout) == "0")
        #expect(SweepFixture.field("widgets_skipped", in: later.stdout) == "3", "\(later.stdout)")
    }

    @Test(arguments: TestEngine.real)
    func aGoneWidgetTokenTakesItsTargetAloneAndAGoneDeviceTokenTakesBoth(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register(11...12, widgets: true)
        let state = try fixture.standIn.state()
        try state.script(token: SweepFixture.widgetToken(11), status: 410, reason: "Unregistered")
        try state.script(token: SweepFixture.widgetToken(12), status: 400, reason: "BadDeviceToken")
        let result = try fixture.sweep()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(SweepFixture.field("removed", in: result.stdout) == "0", "\(result.stdout)")
        #expect(SweepFixture.field("widgets_removed", in: result.stdout) == "2", "\(result.stdout)")
        for seed in 11...12 {
            let row = try #require(try fixture.row(seed), "the registration stays")
            #expect(row.target(.widgets) == nil && row.wakeupCount == 1)
        }
        // The device token gone: the registration goes, with any target it has.
        try state.script(token: sampleToken(11), status: 410, reason: "Unregistered")
        let gone = try fixture.sweep(["LIVEACTIVITY_TEST_CLOCK_OFFSET": "300"])
        #expect(SweepFixture.field("removed", in: gone.stdout) == "1", "\(gone.stdout)")
        #expect(try fixture.row(11) == nil && fixture.row(12) != nil)
    }

    @Test(arguments: TestEngine.real)
    func aWrongWidgetsTopicStopsWidgetsAloneAndTheWakesGoOut(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register(21...30, widgets: true)
        let state = try fixture.standIn.state()
        // The widget extension lacks the push capability: APNs refuses its topic.
        for seed in 21...30 { try state.script(token: SweepFixture.widgetToken(seed), status: 400, reason: "BadTopic") }
        let start = Clock().now()
        let result = try fixture.sweep()
        #expect(result.status == 1, "a configuration fault fails the run: \(result.stdout)")
        #expect(SweepFixture.field("sent", in: result.stdout) == "10", "every wake delivered: \(result.stdout)")
        #expect(SweepFixture.field("widgets_sent", in: result.stdout) == "0", "\(result.stdout)")
        let faults = try #require(SweepFixture.field("faults", in: result.stdout))
        #expect(faults.hasPrefix("production/widgets:BadTopic:"), "\(faults)")
        #expect(lines(result.stderr).count == 1, "one line for the fault: \(result.stderr)")
        #expect(result.stderr.contains("configuration fault in production widgets: BadTopic"), "\(result.stderr)")
        #expect(result.stderr.contains("Sending widgets pushes to production stopped this sweep"), "\(result.stderr)")
        for seed in 21...30 {
            let row = try #require(try fixture.row(seed))
            #expect(row.wakeupCount == 1 && row.lastError == nil)
            let widgets = try #require(row.target(.widgets), "nothing deleted for a topic fault")
            #expect(widgets.lastError == "BadTopic" && widgets.consecutiveFailures == 0)
            #expect(widgets.nextPushAt >= start + 1_790_000, "held one widgets interval, not every minute")
        }
    }

    /// A widget's whole life as the app and cron meet it, through nginx, the responder, the sweep
    /// and the stand-in: registered beside the wake, pushed at its own interval with its own
    /// headers, its token gone while the wakes go on, a new one sent, a wrong topic held as a
    /// fault, forgotten by a refresh without it, unregistered, and expired with its registration.
    @Test(arguments: TestEngine.real)
    func aWidgetsWholeLifeThroughNginxTheResponderTheSweepAndTheStandIn(engine: TestEngine) throws {
        let standIn = try StandInStack()
        let live = try LiveStack(engine)
        let token = testToken(3201)
        let (first, second, third) = (testToken(3202), testToken(3203), testToken(3204))
        var outputs: [String] = []
        // The sweep as cron runs it, `offset` seconds after the registrations (the test clock).
        func sweep(at offset: Int) throws -> CommandResult {
            var environment = standIn.sweepEnvironment(database: live.databasePath)
            environment["LIVEACTIVITY_TEST_CLOCK_OFFSET"] = "\(offset)"
            let result = try runCommand(product("liveactivity-sweep"), environment: environment)
            outputs.append(result.stdout + result.stderr)
            return result
        }
        func field(_ key: String, _ result: CommandResult) -> String? { SweepFixture.field(key, in: result.stdout) }
        func register(_ body: String) throws {
            let answer = try live.request("POST", "/dev/wakeup", body: body)
            #expect(answer.status == 200, "\(body): \(answer.text)")
        }
        let state = try standIn.state()

        // Registered with both tokens: the answer says the widgets interval, the first sweep
        // pushes both, each as Apple's own request of its kind.
        let answer = try live.request("POST", "/dev/wakeup", body: registerBody(token, widget: first))
        #expect(answer.text == #"{"success":true,"widgetInterval":1800}"#, "\(answer.text)")
        let pushed = try sweep(at: 0)
        #expect(pushed.status == 0 && field("sent", pushed) == "1" && field("widgets_sent", pushed) == "1", "\(pushed.stdout)")
        let widgetPush = try #require(try state.received(token: first).first)
        #expect(widgetPush.status == 200 && widgetPush.serverProtocol == "HTTP/2.0")
        #expect(widgetPush.topic == standIn.key.bundleID + ".push-type.widgets" && widgetPush.pushType == "widgets")
        #expect(widgetPush.priority == nil && widgetPush.expiration == nil)
        #expect(widgetPush.payload == #"{"aps":{"content-changed":true}}"#)

        // Ten minutes on: the wake is due again (charging: 5 minutes), the widget is not (30).
        let early = try sweep(at: 600)
        #expect(field("sent", early) == "1" && field("widgets_sent", early) == "0", "\(early.stdout)")
        #expect(try state.received(token: first).count == 1)

        // The widget extension's token is gone (410): its target alone goes, the wake is sent.
        try state.script(token: first, status: 410, reason: "Unregistered")
        let gone = try sweep(at: 2100)
        #expect(gone.status == 0, "\(gone.stderr)")
        #expect(
            field("sent", gone) == "1" && field("removed", gone) == "0" && field("widgets_removed", gone) == "1", "\(gone.stdout)"
        )
        var row = try #require(try storedRegistration(token, in: live), "the registration stays")
        #expect(row.target(.widgets) == nil && row.wakeupCount == 3)

        // The app sends its new widget token; the extension lacks the push capability (BadTopic):
        // a fault of the widgets topic, held, nothing deleted, and the wake still goes out.
        try register(registerBody(token, widget: second))
        try state.script(token: second, status: 400, reason: "BadTopic")
        let fault = try sweep(at: 2700)
        #expect(fault.status == 1, "a configuration fault fails the run: \(fault.stdout)")
        #expect(field("sent", fault) == "1" && field("widgets_sent", fault) == "0", "\(fault.stdout)")
        #expect(fault.stderr.contains("configuration fault in sandbox widgets: BadTopic"), "\(fault.stderr)")
        row = try #require(try storedRegistration(token, in: live))
        #expect(row.target(.widgets)?.token.hex == second && row.target(.widgets)?.lastError == "BadTopic")

        // A refresh without the widget token (the widget removed): the widgets target goes.
        try register(registerBody(token, type: "charging"))
        row = try #require(try storedRegistration(token, in: live))
        #expect(row.targets.map(\.kind) == [.wake])

        // Unregistered: both targets gone, nothing more is pushed to either token.
        try register(registerBody(token, widget: third))
        #expect(try live.request("POST", "/dev/wakeup/unregister", body: unregisterBody(token)).status == 200)
        #expect(try live.database.scalar("SELECT count(*) FROM push_targets") == 0)
        let after = try sweep(at: 3300)
        #expect(field("active", after) == "0" && field("widgets_sent", after) == nil, "\(after.stdout)")
        #expect(try state.received(token: third).isEmpty)

        // Registered again with its widget, then left for 8 hours: the next sweep expires the
        // registration and both targets. (The registration is dated back rather than the clock
        // moved on: a sweep refuses to expire most rows after its clock jumps hours ahead.)
        try register(registerBody(token, widget: third))
        try live.database.execute(
            "UPDATE push_targets SET registered_at = registered_at - 28800000, expires_at = expires_at - 28800000")
        let expired = try sweep(at: 3360)
        #expect(expired.status == 0 && field("expired", expired) == "1", "\(expired.stdout)\(expired.stderr)")
        #expect(try live.database.scalar("SELECT count(*) FROM push_targets") == 0)
        #expect(try state.received(token: token).count == 4 && state.received(token: third).isEmpty)

        // No log on the way held a whole token of either kind (SPEC 1: 8 characters at most).
        for log in [live.responderLog, live.accessLog, standIn.log] + outputs {
            for whole in [token, first, second, third] { #expect(!log.contains(whole)) }
        }
    }

    @Test(arguments: TestEngine.real)
    func theResponderTakesAndAnswersTheWidgetToken(engine: TestEngine) throws {
        let live = try LiveStack(engine)
        let token = testToken(3101)
        let widget = testToken(3102)
        let answer = try live.request(
            "POST", "/wakeup", body: registerBody(token, widget: widget, widgetInterval: 7200, interval: 900))
        #expect(
            answer.status == 200 && answer.text == #"{"success":true,"interval":900,"widgetInterval":3600}"#, "\(answer.text)")
        var row = try #require(try storedRegistration(token, in: live))
        #expect(row.target(.widgets)?.token.hex == widget && row.target(.widgets)?.requestedInterval == 7200)
        // The same token for both, or a malformed one: a 400 that changes nothing.
        for body in [
            registerBody(token, widget: token), registerBody(token, widget: "xyz"),
            registerBody(token, widget: widget, widgetInterval: 0),
        ] {
            let refused = try live.request("POST", "/wakeup", body: body)
            #expect(refused.status == 400, "\(body): \(refused.text)")
        }
        row = try #require(try storedRegistration(token, in: live))
        #expect(row.target(.widgets)?.requestedInterval == 7200)
        // Unregistering removes both targets.
        #expect(try live.request("POST", "/wakeup/unregister", body: unregisterBody(token)).status == 200)
        #expect(try live.database.scalar("SELECT count(*) FROM push_targets") == 0)
        #expect(!live.responderLog.contains(widget) && !live.accessLog.contains(widget))
    }
}
