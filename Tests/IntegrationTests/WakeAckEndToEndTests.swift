import Foundation
import LiveActivityDomain
import LiveActivityStore
import TestSupport
import Testing

/// Issue 16 through the real system: an app asks for its interval through nginx, the cron sweep
/// pushes by it to the stand-in over HTTP/2 + TLS, the app acks the push through nginx, and the
/// operator sees it in `history`, `stats --json` and `/wakeup/metrics`.
@Suite("Wake acks end to end")
struct WakeAckEndToEndTests {
    @Test(arguments: TestEngine.real)
    func anAckedWakeIsSeenInHistoryStatsAndMetrics(engine: TestEngine) throws {
        let standIn = try StandInStack()
        let live = try LiveStack(engine)
        let token = testToken(1616)

        let registered = try live.request("POST", "/dev/wakeup", body: registerBody(token, interval: 900))
        #expect(registered.status == 200 && registered.text == #"{"success":true,"interval":900}"#)
        let before = Clock().now() / 1000
        let environment = standIn.sweepEnvironment(database: live.databasePath)
        let sweep = try runCommand(product("liveactivity-sweep"), environment: environment)
        #expect(sweep.status == 0 && sweep.stdout.contains("sent=1 "), "\(sweep.stdout) \(sweep.stderr)")
        let push = try #require(try standIn.state().received(token: token).first)
        let expiration = try #require(push.expiration.flatMap { Int64($0) })
        #expect(expiration >= before + 900 && expiration <= before + 910, "apns-expiration = now + the app's interval")

        // The app woke: it acks, twice (a retry), and a stranger acks a token never registered.
        let ack = try live.request("POST", "/dev/wakeup/ack", body: unregisterBody(token))
        #expect(ack.status == 200 && ack.text == #"{"success":true}"#)
        #expect(try live.request("POST", "/wakeup/ack", body: unregisterBody(token.uppercased())).text == #"{"success":true}"#)
        #expect(try live.request("POST", "/wakeup/ack", body: unregisterBody(testToken(1617))).text == #"{"success":true}"#)

        let history = try runCommand(
            product("liveactivity-sweep"), ["history", String(token.prefix(10)), "--json"], environment: environment)
        #expect(history.status == 0, "\(history.stderr)")
        let story = try #require(try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [String: Any])
        #expect(story["token"] as? String == String(token.prefix(8)))
        #expect(
            story["interval"] as? Int == 900 && story["intervalAsked"] as? Int == 900
                && story["environment"] as? String == "sandbox")
        let attempts = try #require(story["attempts"] as? [[String: Any]])
        #expect(attempts.count == 1)
        #expect(attempts.first?["status"] as? Int == 200)
        #expect(attempts.first?["apnsID"] as? String == push.apnsID, "the apns-id the stand-in answered with")
        #expect(attempts.first?["ackedAt"] is Int && attempts.first?["ackDelayMs"] is Int)

        let stats = try runCommand(product("liveactivity-sweep"), ["stats", "--json"], environment: environment)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        let day = try #require((report["delivery"] as? [String: Any])?["24h"] as? [String: Any])
        #expect((day["acks"] as? [String: Int]) == ["matched": 1, "duplicate": 1, "unmatched": 1])
        let charging = try #require((day["byType"] as? [[String: Any]])?.first)
        #expect(charging["delivered"] as? Int == 1 && charging["acked"] as? Int == 1 && charging["ackedShare"] as? Double == 1)

        let metrics = try live.request("GET", "/wakeup/metrics")
        #expect(metrics.text.contains("liveactivity_acks_total{outcome=\"matched\"} 1\n"))
        #expect(metrics.text.contains("liveactivity_wake_ack_delay_seconds_count 1\n"))

        // Nothing on the way kept more of the token than 8 characters, nor the client's address.
        for log in [live.responderLog, live.accessLog, sweep.stdout + sweep.stderr, history.stderr, stats.stdout] {
            #expect(!log.contains(token))
        }
        #expect(!live.accessLog.contains("127.0.0.1"))
    }

    @Test(arguments: TestEngine.real)
    func aRefreshWithoutTheIntervalGoesBackToTheTypes(engine: TestEngine) throws {
        let live = try LiveStack(engine)
        let token = testToken(1618)
        #expect(try live.request("POST", "/wakeup", body: registerBody(token, interval: 1200)).status == 200)
        #expect(try storedRegistration(token, in: live)?.requestedInterval == 1200)
        let refresh = try live.request("POST", "/wakeup", body: registerBody(token))
        #expect(refresh.text == #"{"success":true}"#)
        #expect(try storedRegistration(token, in: live)?.requestedInterval == nil)
    }
}
