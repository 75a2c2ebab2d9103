import Foundation
import LiveActivityDomain
import TestSupport
import Testing

/// Issue 30 point 9: a clock that steps forward 8 hours (NTP fixing a wrong clock, a failover to
/// a database server whose clock is off) made every registration look expired, and the next
/// sweep deleted them all. The sweep compares its clock with the host's time since boot since
/// its last run and refuses such an expiry (one line, exit 1).
@Suite("A clock step and expiry")
struct ClockStepExpiryTests {
    @Test(arguments: TestEngine.real)
    func aForwardStepOfNineHoursExpiresNothingAndSaysSo(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register(1...10)
        #expect(try fixture.sweep().status == 0)
        let stepped = try fixture.sweep(["LIVEACTIVITY_TEST_CLOCK_OFFSET": String(9 * 3600)])
        #expect(stepped.status == 1, "\(stepped.stdout)\(stepped.stderr)")
        let lines = stepped.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.contains("clock: the clock moved 5") == true, "\(stepped.stderr)")
        #expect(stepped.stderr.contains("expiry would delete 10 of 10 registrations"))
        #expect(try fixture.count() == 10, "nothing expired")
        // Still refused the next minute: the step is measured from the last good run.
        let again = try fixture.sweep(["LIVEACTIVITY_TEST_CLOCK_OFFSET": String(9 * 3600 + 60)])
        #expect(again.status == 1, "\(again.stderr)")
        #expect(try fixture.count() == 10)
        // The clock set right again: the sweep goes on as before.
        let right = try fixture.sweep(["LIVEACTIVITY_TEST_CLOCK_OFFSET": "300"])
        #expect(right.status == 0, "\(right.stderr)")
        #expect(SweepFixture.field("expired", in: right.stdout) == "0")
    }

    @Test(arguments: TestEngine.real)
    func rowsThatReallyAgedExpireAsBefore(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register(1...5)
        #expect(try fixture.sweep().status == 0)
        // Registered 9 hours ago by a right clock: old by any clock, and no step in between.
        try fixture.register(6...20, ago: 9 * 3_600_000)
        let run = try fixture.sweep()
        #expect(run.status == 0, "\(run.stderr)")
        #expect(SweepFixture.field("expired", in: run.stdout) == "15")
        #expect(try fixture.count() == 5)
    }

    @Test(arguments: TestEngine.real)
    func aSmallShareExpiringAfterAStepIsNotRefused(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register(1...10)
        try fixture.register([11], ago: 7 * 3_600_000 + 30 * 60_000)
        #expect(try fixture.sweep().status == 0)
        // An hour ahead: one row of eleven crosses its 8 hours, which a step may do.
        let run = try fixture.sweep(["LIVEACTIVITY_TEST_CLOCK_OFFSET": "3600"])
        #expect(SweepFixture.field("expired", in: run.stdout) == "1", "\(run.stdout)\(run.stderr)")
    }
}
