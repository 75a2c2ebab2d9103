import Foundation
import TestSupport
import Testing

/// The status page's and `stats`'s last sweep across a step of the wall clock (issue 26 point 8):
/// the last run is the last one recorded, not the one with the latest start, so a clock that
/// went back neither hides a stopped cron nor raises a false alarm while cron runs. Real sweeps
/// (nothing due, so no push) and `stats --json`, each with its clock moved as a stepped host's is.
@Suite("Figures across a step of the wall clock")
struct ClockStepFiguresTests {
    let folder = TemporaryDirectory("clock-step")

    func settings(clockOffset seconds: Int) throws -> [String: String] {
        let key = try TestKey(in: folder)
        return [
            "LIVEACTIVITY_DB": folder.file("db.sqlite"), "APNS_KEY_ID": key.keyID, "APNS_TEAM_ID": key.teamID,
            "APNS_BUNDLE_ID": key.bundleID, "APNS_KEY_PATH": key.privateKeyPath, "APNS_HOST": "https://127.0.0.1:9",
            "LIVEACTIVITY_TEST_CLOCK_OFFSET": String(seconds), "PATH": "/usr/bin:/bin",
        ]
    }

    func sweep(clockOffset seconds: Int) throws {
        let run = try runCommand(product("liveactivity-sweep"), [], environment: settings(clockOffset: seconds))
        #expect(run.status == 0, "sweep at \(seconds) s: \(run.stderr)")
    }

    func stats(clockOffset seconds: Int) throws -> [String: Any] {
        let run = try runCommand(product("liveactivity-sweep"), ["stats", "--json"], environment: settings(clockOffset: seconds))
        #expect(run.status == 0, "\(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    @Test func theLastSweepIsTheLastRecordedAfterTheClockWentBack() throws {
        try sweep(clockOffset: 0)
        // The host's clock goes back an hour; cron goes on.
        try sweep(clockOffset: -3600)
        let report = try stats(clockOffset: -3600)
        let generatedAt = try #require(report["generatedAt"] as? Int64)
        let lastRunAt = try #require(report["lastRunAt"] as? Int64)
        #expect(
            lastRunAt <= generatedAt && generatedAt - lastRunAt < 120_000,
            "the last sweep shown is \(lastRunAt - generatedAt) ms away")
        #expect(report["alarms"] as? [String] == [], "\(report["alarms"] ?? "")")
    }

    @Test func cronStoppingAfterTheClockWentBackIsAnAlarm() throws {
        try sweep(clockOffset: 0)
        // The clock goes back an hour and no sweep runs after it: none finished in the last
        // 3 minutes by this clock, although the last one recorded claims to finish in its future.
        let report = try stats(clockOffset: -3600)
        #expect(report["alarms"] as? [String] == ["noSweepFinishedLately"], "\(report["alarms"] ?? "")")
        let text = try runCommand(product("liveactivity-sweep"), ["stats"], environment: settings(clockOffset: -3600))
        #expect(text.stdout.contains("ALARM: no sweep finished in the last 3 minutes"), "\(text.stdout)")
    }
}
