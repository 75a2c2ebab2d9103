import Foundation
import LiveActivityDomain
import LiveActivityStore
import TestSupport
import Testing

/// How a sweep ends early without losing a write (SPEC 5: the time budget; a systemd stop or an
/// operator's kill), and what a registration made during a sweep keeps; against a slow stand-in.
@Suite("Sweep stops against the APNs stand-in")
struct SweepStopsAgainstStandInTests {
    func pushedRows(_ fixture: SweepFixture) throws -> Int {
        Int(try fixture.database.scalar("SELECT count(*) FROM push_targets WHERE push_count > 0") ?? -1)
    }

    @Test(arguments: TestEngine.real)
    func pastTheTimeBudgetNothingNewIsSentAndEveryAnswerIsWritten(engine: TestEngine) throws {
        // 50 pushes a second get through; 1,000 would take 20 s.
        let fixture = try SweepFixture(engine, standIn: StandInStack(pace: 50))
        try fixture.register(1...1000)
        // The budget, not the backlog, ended it: most rows deferred (checked below), the line says so.
        let result = try fixture.sweep(["LIVEACTIVITY_SWEEP_BUDGET": "2", "LIVEACTIVITY_APNS_CONCURRENCY": "20"])
        #expect(result.status == 0, "\(result.stderr)")
        let sent = Int(SweepFixture.field("sent", in: result.stdout) ?? "") ?? -1
        let deferred = Int(SweepFixture.field("deferred", in: result.stdout) ?? "") ?? -1
        #expect(sent > 20 && deferred > 500 && sent + deferred == 1000, "\(result.stdout)")
        #expect(SweepFixture.field("failed", in: result.stdout) == "0", "pushes in flight finished")
        #expect(result.stderr.contains("time budget of 2 s ran out: \(deferred) pushes were not sent"))
        #expect(try pushedRows(fixture) == sent, "every answer written")
        #expect(try fixture.received().count == sent, "nothing sent that was not answered and written")
        // What was not reached is due at once.
        let next = try fixture.sweep(["LIVEACTIVITY_SWEEP_BUDGET": "1", "LIVEACTIVITY_APNS_CONCURRENCY": "20"])
        #expect(Int(SweepFixture.field("sent", in: next.stdout) ?? "") ?? 0 > 0)
    }

    @Test(arguments: TestEngine.real)
    func sigtermEndsTheSweepAsTheBudgetDoesWithoutLosingAWrite(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, standIn: StandInStack(pace: 50))
        try fixture.register(1...1000)
        let sweep = try fixture.startSweep(["LIVEACTIVITY_APNS_CONCURRENCY": "20"])
        #expect(waitUntil(timeout: 60) { ((try? fixture.received().count) ?? 0) >= 50 })
        sweep.signal(SIGTERM)
        #expect(sweep.waitForExit(timeout: 60) == .exited(0), "\(sweep.output)")
        let sent = Int(SweepFixture.field("sent", in: sweep.output) ?? "") ?? -1
        #expect(sent >= 50 && sent < 1000, "\(sweep.output)")
        #expect(sweep.output.contains("a stop was requested (SIGTERM)"))
        #expect(try pushedRows(fixture) == sent, "every answer received was written")
        #expect(try fixture.received().count == sent)
        try expectIntact(fixture.database, holding: [])
        #expect(try fixture.database.scalar("SELECT count(*) FROM sweep_runs") == 1, "the run was recorded")
    }

    @Test(arguments: TestEngine.real)
    func aRegistrationDuringTheSweepStaysDueAtOnce(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register([1])
        #expect(try fixture.sweep().status == 0)
        // The next push is answered 503 after two seconds; the app registers again meanwhile.
        try fixture.standIn.state().script(
            token: sampleToken(1), status: 503, reason: "ServiceUnavailable", delayMilliseconds: 2000)
        let sweep = try fixture.startSweep(["LIVEACTIVITY_TEST_CLOCK_OFFSET": "300"])
        #expect(waitUntil(timeout: 60) { ((try? fixture.received(1).count) ?? 0) == 2 })
        try fixture.register([1], ago: -300_000)  // "now" by the sweep's clock
        #expect(sweep.waitForExit(timeout: 60) == .exited(0), "a failed push is no fault: \(sweep.output)")
        #expect(sweep.output.contains("failed=1 "), "\(sweep.output)")
        let row = try #require(try fixture.row(1))
        #expect(row.nextPushAt == row.registeredAt, "due at once, not backed off")
        #expect(row.consecutiveFailures == 0 && row.lastError == nil)
    }

    @Test(arguments: TestEngine.real)
    func anEnvironmentTakenOutOfAPNSEnvironmentsIsNotPushed(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register(1...3, environment: .production)
        try fixture.register(11...13, environment: .sandbox)
        let result = try fixture.sweep(["APNS_ENVIRONMENTS": "production"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("sent=3 skipped=3 "), "\(result.stdout)")
        #expect(try fixture.received().allSatisfy { $0.environment == .production })
        #expect(try fixture.count() == 6, "left to expire")
        let refused = try fixture.sweep(["APNS_ENVIRONMENTS": "production", "APNS_ENVIRONMENT": "sandbox"])
        #expect(refused.status == 2 && refused.stderr.contains("APNS_ENVIRONMENT"))
    }

    @Test(arguments: TestEngine.real)
    func aClosedStdoutCostsTheLineNotTheOutcomes(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register(1...5)
        let binary = product("liveactivity-sweep")
        var environment = fixture.sweepEnvironment()
        environment["SWEEP"] = binary
        // The reader of the pipe is gone before the summary is printed.
        let result = try runCommand(
            "/bin/bash", ["-c", "set -o pipefail; \"$SWEEP\" | (exec 0<&-; sleep 0); echo \"status=$?\" >&2"],
            environment: environment)
        #expect(result.stderr.contains("status=0"), "not killed by SIGPIPE (141): \(result.stderr)")
        #expect(try pushedRows(fixture) == 5)
    }
}
