import Foundation
import LiveActivityDomain
import LiveActivityStore
import TestSupport
import Testing

/// Issue 49 through the real system: a simulated app registers and acks with its device state
/// through nginx, the cron sweep pushes to the stand-in over HTTP/2 + TLS by the cadence that
/// state makes, and the stand-in's record, the sweep's line and `history` show it.
@Suite("Device state end to end")
struct DeviceStateEndToEndTests {
    @Test(arguments: TestEngine.real)
    func theStandInSeesTheCadenceTheAppsStateMakes(engine: TestEngine) throws {
        let standIn = try StandInStack()
        let live = try LiveStack(engine)
        let lowPower = testToken(4901)
        let refreshOff = testToken(4902)
        let silent = testToken(4903)

        let low = try live.request("POST", "/dev/wakeup", body: #"{"pushToken":"\#(lowPower)","activities":1,"lowPower":true}"#)
        #expect(low.status == 200 && low.text == #"{"success":true}"#)
        let off = try live.request(
            "POST", "/dev/wakeup", body: #"{"pushToken":"\#(refreshOff)","activities":1,"backgroundRefresh":"denied"}"#)
        #expect(off.text == #"{"success":true,"paused":"backgroundRefresh"}"#)
        #expect(try live.request("POST", "/dev/wakeup", body: registerBody(silent)).status == 200)

        let environment = standIn.sweepEnvironment(database: live.databasePath)
        func sweep(afterMinutes minutes: Int) throws -> CommandResult {
            var moved = environment
            moved["LIVEACTIVITY_TEST_CLOCK_OFFSET"] = String(minutes * 60)
            let run = try runCommand(product("liveactivity-sweep"), environment: moved)
            #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
            return run
        }
        let before = Clock().now() / 1000
        let first = try sweep(afterMinutes: 0)
        #expect(first.stdout.contains("sent=2 ") && first.stdout.contains("withheld=paused:1"), "\(first.stdout)")
        #expect(try standIn.state().received(token: refreshOff).isEmpty, "refresh off: a wake would launch nothing")
        let push = try #require(try standIn.state().received(token: lowPower).first)
        let expiration = try #require(push.expiration.flatMap { Int64($0) })
        #expect(expiration >= before + 600 && expiration <= before + 610, "apns-expiration: the doubled interval")

        // The phone woke and found no activity (the user swiped it away): its wakes end.
        let ack = try live.request(
            "POST", "/dev/wakeup/ack", body: #"{"pushToken":"\#(lowPower)","activities":0,"changed":false}"#)
        #expect(ack.status == 200 && ack.text == #"{"success":true}"#)
        let later = try sweep(afterMinutes: 10)
        #expect(later.stdout.contains("sent=1 "), "only the app that says nothing: \(later.stdout)")
        #expect(later.stdout.contains("withheld=noActivity:1,paused:1"), "\(later.stdout)")
        #expect(try standIn.state().received(token: lowPower).count == 1)
        #expect(try standIn.state().received(token: silent).count == 2)

        let history = try runCommand(
            product("liveactivity-sweep"), ["history", String(lowPower.prefix(10))], environment: environment)
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stdout.contains("  cadence: paused: the app found no activity to update"), "\(history.stdout)")
        #expect(history.stdout.contains("  device: 0 activities, Low Power Mode on (as the app last said)"), "\(history.stdout)")

        // The operator's figures count the same wakes: `stats`, its JSON and the responder's metrics.
        let stats = try runCommand(product("liveactivity-sweep"), ["stats"], environment: environment)
        #expect(stats.stdout.contains("  charging / sandbox: noActivity 1/1/1, paused 2/2/2, lowPower 0/0/0"), "\(stats.stdout)")
        let json = try runCommand(product("liveactivity-sweep"), ["stats", "--json"], environment: environment)
        #expect(
            json.stdout.contains(
                #""lifetime":[{"activityType":"charging","environment":"sandbox","reason":"noActivity","count":1},{"activityType":"charging","environment":"sandbox","reason":"paused","count":2}]"#
            ), "\(json.stdout)")
        let metrics = try live.request("GET", "/wakeup/metrics")
        #expect(
            metrics.text.contains(
                "liveactivity_wakes_withheld_total{activity_type=\"charging\",environment=\"sandbox\",reason=\"paused\"} 2\n"),
            "\(metrics.text)")

        // What the phone said is in no log line: not the responder's, nginx's or the sweep's.
        for log in [live.responderLog, live.accessLog, first.stdout + first.stderr, later.stdout + later.stderr] {
            for word in ["lowPower", "activities", "backgroundRefresh", "changed", lowPower] { #expect(!log.contains(word)) }
        }
    }
}
