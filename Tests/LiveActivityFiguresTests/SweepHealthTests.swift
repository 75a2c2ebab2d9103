import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityFigures
@testable import LiveActivityStore

/// The alarm at the top of the status page (SPEC 3): no sweep finished in the last 3 minutes,
/// or the last one exited non-zero - judged from what the run history records.
@Suite struct SweepHealthTests {
    let now: Int64 = 1_800_000_000_000

    @Test func aSweepThatFinishedWithinThreeMinutesAndExitedZeroIsNoAlarm() {
        #expect(SweepHealth(lastFinishedAt: now - 180_000, lastExitedNonZero: false, now: now).alarms == [])
        #expect(SweepHealth(lastFinishedAt: now - 1, lastExitedNonZero: false, now: now).isAlarm == false)
    }

    @Test func ofSeveralHostsTheOneWhoseLastSweepIsOlderThanThreeMinutesIsNamed() {
        let hosts = [
            HostRun(host: "web1", startedAt: now - 30_000, durationMilliseconds: 2_000, failed: false),
            HostRun(host: "web2", startedAt: now - 600_000, durationMilliseconds: 2_000, failed: false),
        ]
        // web1's run is the last of all: only the host alarm shows that web2 stopped.
        #expect(
            SweepHealth(lastFinishedAt: now - 28_000, lastExitedNonZero: false, now: now, hosts: hosts).alarms == [
                .hostStopped(host: "web2", milliseconds: 598_000)
            ])
        // One host alone is the alarms above, not named twice.
        #expect(
            SweepHealth(lastFinishedAt: now - 598_000, lastExitedNonZero: false, now: now, hosts: [hosts[1]]).alarms == [
                .noSweepFinishedLately(milliseconds: 598_000)
            ])
    }

    @Test func noSweepForMoreThanThreeMinutesIsAnAlarm() {
        #expect(
            SweepHealth(lastFinishedAt: now - 180_001, lastExitedNonZero: false, now: now).alarms == [
                .noSweepFinishedLately(milliseconds: 180_001)
            ])
    }

    @Test func aSweepThatExitedNonZeroIsAnAlarmAlsoWhenRecent() {
        #expect(SweepHealth(lastFinishedAt: now - 5_000, lastExitedNonZero: true, now: now).alarms == [.lastSweepFailed])
        #expect(
            SweepHealth(lastFinishedAt: now - 600_000, lastExitedNonZero: true, now: now).alarms == [
                .noSweepFinishedLately(milliseconds: 600_000), .lastSweepFailed,
            ])
    }

    @Test func noSweepEverIsAnAlarmAndAFinishAheadOfTheClockIsFresh() {
        #expect(SweepHealth(lastFinishedAt: nil, lastExitedNonZero: false, now: now).alarms == [.noSweepRecorded])
        #expect(SweepHealth(lastFinishedAt: now + 60_000, lastExitedNonZero: false, now: now).alarms == [])
    }

    /// The last run recorded finished more than 3 minutes ahead of the clock: the clock went back
    /// since (issue 26 point 8), and no run was recorded after the step, so none can be said to
    /// have finished in the last 3 minutes by this clock: cron stopped, or runs fail.
    @Test func aFinishFarAheadOfTheClockIsNoProofOfARecentSweep() {
        #expect(
            SweepHealth(lastFinishedAt: now + 3_600_000, lastExitedNonZero: false, now: now).alarms == [
                .noSweepFinishedLately(milliseconds: -3_600_000)
            ])
        #expect(SweepHealth(lastFinishedAt: now + 180_000, lastExitedNonZero: false, now: now).alarms == [])
    }

    /// "Exited non-zero" is read as the sweep decides its exit code: a recorded fault of any kind
    /// but an unreachable host (which backs off and exits 0).
    @Test(
        arguments: [
            (SweepFault.Kind.configuration, true), (.provider, true), (.guarded, true), (.unreachable, false),
        ], TestEngine.every)
    func theLastRunFailedExactlyWhenItRecordedAFaultThatFailsTheRun(
        fault: (kind: SweepFault.Kind, fails: Bool), engine: TestEngine
    ) throws {
        let (kind, fails) = fault
        let store = try TestDatabase(engine, label: "health")
        var failing = SweepSummary()
        failing.startedAt = now - 120_000
        failing.faults = [SweepFault(environment: .sandbox, kind: .configuration, reason: "BadTopic", pushes: 3, advice: "")]
        try store.record(failing)
        var last = SweepSummary()
        last.startedAt = now - 60_000
        last.durationMilliseconds = 2_000
        last.faults = [SweepFault(environment: .production, kind: kind, reason: "R", pushes: 1, advice: "")]
        #expect(last.failsTheRun == fails)
        try store.record(last)

        let report = try store.statsReport(now: now)
        #expect(report.day.lastRunFinishedAt == now - 58_000)
        #expect(report.day.lastRunExitedNonZero == fails)
        #expect(SweepHealth(report).alarms == (fails ? [.lastSweepFailed] : []))
    }
}
