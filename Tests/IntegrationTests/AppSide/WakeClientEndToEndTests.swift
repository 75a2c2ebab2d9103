import Foundation
import LiveActivityWakeClient
import TestSupport
import Testing

/// From nothing to an acknowledged wake with the library: the app registers through nginx, the
/// cron sweep pushes to the APNs stand-in, the app acks, and the operator's `history` shows it.
@Suite("Wake client end to end")
struct WakeClientEndToEndTests {
    @Test(arguments: TestEngine.real)
    func aWakeAcknowledgedThroughTheLibraryIsMatchedToItsPush(engine: TestEngine) async throws {
        let standIn = try StandInStack()
        let live = try LiveStack(engine)
        let token = deviceToken(700)
        let client = wakeClient(live, prefix: "/dev", environment: .backendChooses)

        #expect(try await client.register(deviceToken: token, interval: 900).interval == 900)
        let environment = standIn.sweepEnvironment(database: live.databasePath)
        let sweep = try runCommand(product("liveactivity-sweep"), environment: environment)
        #expect(sweep.status == 0 && sweep.stdout.contains("sent=1 "), "\(sweep.stdout) \(sweep.stderr)")
        let push = try #require(try standIn.state().received(token: token.hex).first)

        try await client.acknowledgeWake(deviceToken: token)
        #expect(try live.database.scalar("SELECT count FROM ack_totals WHERE outcome = 'matched'") == 1)

        let history = try runCommand(
            product("liveactivity-sweep"), ["history", String(token.hex.prefix(8)), "--json"], environment: environment)
        #expect(history.status == 0, "\(history.stderr)")
        let story = try #require(try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [String: Any])
        #expect(story["environment"] as? String == "sandbox" && story["intervalAsked"] as? Int == 900)
        let attempt = try #require((story["attempts"] as? [[String: Any]])?.first)
        #expect(attempt["status"] as? Int == 200 && attempt["apnsID"] as? String == push.apnsID)
        #expect(attempt["ackedAt"] is Int)

        try await client.unregister(deviceToken: token)
        #expect(try live.database.count() == 0)
    }
}
