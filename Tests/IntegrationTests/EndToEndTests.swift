import Foundation
import LiveActivityDomain
import TestSupport
import Testing

/// The whole path: the app's request through nginx into SQLite, the cron sweep, the push at the
/// stand-in over HTTP/2 + TLS - and the unregister that stops the pushes.
@Suite("End to end")
struct EndToEndTests {
    @Test(arguments: TestEngine.real)
    func aRegistrationThroughNginxIsPushedByTheNextSweep(engine: TestEngine) throws {
        let standIn = try StandInStack()
        let live = try LiveStack(engine)
        let token = testToken(2024)

        let registered = try live.request("POST", "/dev/wakeup", body: registerBody(token, type: "debug"))
        #expect(registered.status == 200)
        let sweep = try runCommand(
            product("liveactivity-sweep"), environment: standIn.sweepEnvironment(database: live.databasePath))
        #expect(sweep.status == 0, "\(sweep.stderr)")
        #expect(sweep.stdout.contains("sent=1 "), "\(sweep.stdout)")

        let pushes = try standIn.state().received(token: token)
        #expect(pushes.count == 1)
        #expect(pushes.first?.status == 200)
        #expect(pushes.first?.serverProtocol == "HTTP/2.0")
        let row = try #require(try storedRegistration(token, in: live))
        #expect(row.environment == .sandbox)
        #expect(row.wakeupCount == 1)

        // The Live Activity ends: unregistered, nothing more is pushed.
        #expect(try live.request("POST", "/dev/wakeup/unregister", body: unregisterBody(token)).status == 200)
        var later = standIn.sweepEnvironment(database: live.databasePath)
        later["LIVEACTIVITY_TEST_CLOCK_OFFSET"] = "120"
        let next = try runCommand(product("liveactivity-sweep"), environment: later)
        #expect(next.stdout.contains("active=0 sent=0 "), "\(next.stdout)")
        #expect(try standIn.state().received(token: token).count == 1)

        // No log line on the way held the full token (SPEC 1: 8 characters at most).
        for log in [live.responderLog, live.accessLog, sweep.stdout + sweep.stderr, standIn.log] {
            #expect(!log.contains(token))
        }
    }
}
