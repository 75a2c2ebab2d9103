import Foundation
import TestSupport
import Testing

/// Every line either program writes is time-stamped (ISO 8601 UTC) and names the program (SPEC 7,
/// issue #8 defect 2): cron and spawn-fcgi put stdout and stderr in one log file, where a line
/// without a time cannot be placed.
@Suite("Log lines")
struct LogLineTests {
    func expectStamped(_ output: String, _ what: String) {
        let stamped = #/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ liveactivity-(fcgi|sweep): \S/#
        let lines = output.split(separator: "\n")
        let bare = lines.filter { (try? stamped.prefixMatch(in: $0)) == nil }
        #expect(!lines.isEmpty, "\(what) wrote nothing")
        #expect(bare.isEmpty, "\(what): a line without time stamp or program name: '\(bare.first ?? "")'")
    }

    @Test(arguments: TestEngine.real)
    func aSweepsLinesAndSummaryAreStamped(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register(1...3)
        let run = try fixture.sweep()
        #expect(run.status == 0)
        expectStamped(run.stdout + run.stderr, "a sweep")
        #expect((run.stdout + run.stderr).contains("sent=3"), "no summary: \(run.stdout)")
    }

    @Test(arguments: TestEngine.real)
    func theLockHeldLineIsStamped(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        // This user's own process holds it: another sweep, nothing to do.
        #expect(try fixture.sweep().status == 0)
        let lock = open(fixture.database.sweepFolder + "/lock", O_RDWR | O_NOFOLLOW)
        defer { close(lock) }
        #expect(flock(lock, LOCK_EX | LOCK_NB) == 0)
        let run = try fixture.sweep()
        #expect(run.status == 0)
        #expect(run.stdout.contains("another sweep is running (lock held); nothing to do"), "\(run.stdout)\(run.stderr)")
        expectStamped(run.stdout + run.stderr, "a sweep finding the lock held")
    }

    @Test func aSettingErrorIsStampedInBothPrograms() throws {
        let sweep = try runCommand(
            product("liveactivity-sweep"), [], environment: ["LIVEACTIVITY_EXPIRY_HOURS": "-1", "PATH": "/usr/bin:/bin"])
        #expect(sweep.status == 2)
        expectStamped(sweep.stdout + sweep.stderr, "the sweep's setting error")
        let responder = try runCommand(
            product("liveactivity-fcgi"), ["--socket", "/tmp/never.sock"],
            environment: ["LIVEACTIVITY_EXPIRY_HOURS": "-1", "PATH": "/usr/bin:/bin"])
        #expect(responder.status == 2)
        expectStamped(responder.stdout + responder.stderr, "the responder's setting error")
    }

    @Test(arguments: TestEngine.real)
    func aSupervisedRespondersLinesAreStampedThroughARestart(engine: TestEngine) throws {
        let stack = try supervisedStack(engine, label: "stamped")
        stack.responder.signal(SIGHUP)
        _ = waitUntil(timeout: 60) { stack.responderLog.contains("on SIGHUP") }
        expectStamped(stack.responderLog, "the supervised responder")
    }
}
