import Foundation
import LiveActivityDomain
import TestSupport
import Testing

/// A log that cannot be written (issue #30 point 2): without systemd the responder's log shares
/// `/var` with the database, so a full disk must cost log lines, never a program. Foundation's
/// `FileHandle.write` trapped on the failed write (exit 132); `/dev/full` answers every write
/// with ENOSPC, as a full disk does.
@Suite("A log on a full disk")
struct FullLogTests {
    @Test func aSettingErrorOnAFullLogStillExitsTwo() throws {
        for program in ["liveactivity-sweep", "liveactivity-fcgi"] {
            let run = try runCommand(
                product(program), ["--socket", "/tmp/never.sock"].filter { _ in program == "liveactivity-fcgi" },
                environment: ["LIVEACTIVITY_EXPIRY_HOURS": "-1", "PATH": "/usr/bin:/bin"], standardErrorPath: "/dev/full")
            #expect(run.end == .exited(2), "\(program) ended \(run.end) with its error line unwritable")
        }
    }

    @Test(arguments: TestEngine.real)
    func aResponderWhoseLogIsFullKeepsAnsweringAndCountsWhatItDropped(engine: TestEngine) throws {
        var options = with(engine, ["LIVEACTIVITY_MAX_REGISTRATIONS": "1"], workers: 4)
        options.responderOutput = "/dev/full"
        let stack = try LiveStack(options, label: "fulllog")
        #expect(try stack.request("POST", "/wakeup", body: registerBody(testToken(1))).status == 200)
        // The cap reached logs a line (the first of the minute): it cannot be written.
        #expect(try stack.request("POST", "/wakeup", body: registerBody(testToken(2))).status == 503)
        #expect(try stack.request("POST", "/wakeup", body: registerBody(testToken(1))).status == 200, "a refresh fits")
        let metrics = try stack.request("GET", "/wakeup/metrics")
        #expect(metrics.status == 200)
        let dropped = metrics.text.split(separator: "\n").first { $0.hasPrefix("liveactivity_log_lines_dropped_total ") }
        let count = dropped.flatMap { Int($0.split(separator: " ").last ?? "") }
        #expect((count ?? 0) >= 2, "the start line and the cap's line were dropped and counted: \(dropped ?? "none")")
        #expect(stack.responder.isRunning)
        // Its stop is judged too: exit 0 on SIGTERM, no trap on the way out.
        #expect(stack.responder.stop() == .exited(0))
    }

    @Test(arguments: TestEngine.real)
    func aSweepWhoseLogIsFullWritesEveryOutcomeAndExitsAsItWould(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register(1...20)
        // Every push answered with a fault: its line goes to the full stderr.
        try fixture.standIn.state().script(token: "*", status: 403, reason: "InvalidProviderToken", count: 20)
        let run = try fixture.sweep(standardErrorPath: "/dev/full")
        #expect(run.end == .exited(1), "the configuration fault's exit code, not a trap: \(run.end)")
        #expect(
            SweepFixture.field("faults", in: run.stdout)?.hasPrefix("production:InvalidProviderToken") == true, "\(run.stdout)")
        #expect(try fixture.count() == 20, "every registration kept")
        #expect(try fixture.row(1)?.lastError == "InvalidProviderToken", "the held rows' outcomes were written")
    }
}
