import APNsHTTP2
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore
@testable import LiveActivitySweep

/// Issue 49 (SPEC 5, "Cadence"): the device state an app reports, through the store and the
/// sweep, on every engine: a paused wake target is not pushed, low power doubles its interval,
/// unchanged data stretches it, `activities: 0` ends its wakes while its widgets go on, and each
/// wake withheld is counted by why. An app that reports nothing is pushed as before.
@Suite struct CadenceSweepTests: SweepTimes {
    func token(_ seed: Int) -> PushToken { PushToken(trusted: sampleToken(seed)) }

    /// One sweep at `t0 + minutes`: the seeds pushed, and the summary.
    func sweep(_ fixture: SweepFixture, at minutes: Double) throws -> (pushed: [Int], summary: SweepSummary) {
        let sender = ScriptedSender()
        let summary = try fixture.sweep(at: t0 + Int64(minutes * 60_000), sender)
        let pushed = sender.sent.compactMap { sent in (1...99).first { sampleToken($0) == sent.push.token.hex } }
        return (pushed.sorted(), summary)
    }

    func ack(_ fixture: SweepFixture, _ seed: Int, at minutes: Double, _ report: AckReport) throws -> AckOutcome? {
        try fixture.database.acknowledge(
            token(seed), now: t0 + Int64(minutes * 60_000), policy: fixture.configuration.intervalPolicy, report: report)
    }

    func wake(_ fixture: SweepFixture, _ seed: Int) throws -> PushTarget? { try fixture.row(seed)?.wake }

    @Test(arguments: TestEngine.every)
    func refreshOffPausesTheWakeTargetUntilAnAckSaysAvailable(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "cadence")
        try fixture.register([1], at: t0, device: DeviceState(activities: 1, backgroundRefresh: .denied))
        try fixture.register([2], at: t0)
        var run = try sweep(fixture, at: 0.1)
        #expect(run.pushed == [2], "the paused one is not pushed; the one that said nothing is")
        #expect(run.summary.withheldReasons() == [.paused: 1])
        #expect(run.summary.line.contains(" withheld=paused:1"), "\(run.summary.line)")
        #expect(try wake(fixture, 1)?.nextPushAt == t0 + 5 * minute, "due again at its next tick")
        run = try sweep(fixture, at: 5.1)
        #expect(run.pushed == [2] && run.summary.withheldReasons() == [.paused: 1])
        // The app says refresh is available again: pushed at the next sweep.
        // No push waits on it (none went out), yet the state it carries counts.
        #expect(try ack(fixture, 1, at: 6, AckReport(device: DeviceState(backgroundRefresh: .available))) == .unmatched)
        run = try sweep(fixture, at: 6.1)
        #expect(run.pushed == [1] && run.summary.withheldReasons().isEmpty)
        #expect(try wake(fixture, 1)?.cadence.device == DeviceState(activities: 1, backgroundRefresh: .available))
    }

    @Test(arguments: TestEngine.every)
    func lowPowerDoublesTheIntervalFromTheLastPush(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "cadence")
        try fixture.register([1], at: t0, device: DeviceState(activities: 1, lowPower: true))
        #expect(try sweep(fixture, at: 0.1).pushed == [1], "the first push goes out at once")
        let tick = try sweep(fixture, at: 5.1)
        #expect(tick.pushed.isEmpty && tick.summary.withheldReasons() == [.lowPower: 1])
        #expect(try sweep(fixture, at: 10.1).pushed == [1], "ten minutes after the last push")
        // Low power off: back at base from the last push.
        #expect(try ack(fixture, 1, at: 10.5, AckReport(device: DeviceState(lowPower: false))) == .matched)
        #expect(try sweep(fixture, at: 15.1).pushed == [1])
    }

    @Test(arguments: TestEngine.every)
    func unchangedDataStretchesTheIntervalUntilAChange(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "cadence")
        try fixture.register([1], at: t0, device: DeviceState(activities: 1))
        var minutes = 0.1
        // Three wakes acked with unchanged data: the interval doubles to 10 minutes.
        for _ in 1...3 {
            #expect(try sweep(fixture, at: minutes).pushed == [1], "at \(minutes)")
            #expect(try ack(fixture, 1, at: minutes + 0.2, AckReport(changed: false)) == .matched)
            minutes += 5
        }
        #expect(try wake(fixture, 1)?.cadence.unchangedAcks == 3)
        var run = try sweep(fixture, at: minutes)
        #expect(run.pushed.isEmpty && run.summary.withheldReasons() == [.stretched: 1])
        // An ack that does not say keeps the stretch; one that says changed returns it to base.
        #expect(try sweep(fixture, at: minutes + 5).pushed == [1])
        #expect(try ack(fixture, 1, at: minutes + 5.2, .none) == .matched)
        #expect(try wake(fixture, 1)?.cadence.unchangedAcks == 3)
        run = try sweep(fixture, at: minutes + 10)
        #expect(run.pushed.isEmpty, "still stretched")
        #expect(try sweep(fixture, at: minutes + 15).pushed == [1])
        #expect(try ack(fixture, 1, at: minutes + 15.2, AckReport(changed: true)) == .matched)
        #expect(try sweep(fixture, at: minutes + 20).pushed == [1], "back at base")
        // The change returned the streak to nothing.
        #expect(try wake(fixture, 1)?.cadence.unchangedAcks == 0)
    }

    /// An ack that comes while its push's outcome is not written yet waits on the row; what it
    /// said of the data counts when the sweep matches it.
    @Test(arguments: TestEngine.every)
    func aWaitingAcksChangedCountsWhenTheSweepMatchesIt(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "cadence")
        try fixture.register([1], at: t0, device: DeviceState(activities: 1))
        let sender = ScriptedSender()
        sender.beforeBatch = {
            // The row is due while its push is answered: the ack waits.
            _ = try? fixture.database.acknowledge(
                self.token(1), now: self.t0 + 7000, policy: fixture.configuration.intervalPolicy,
                report: AckReport(changed: false))
        }
        _ = try fixture.sweep(at: t0 + 6000, sender)
        #expect(sender.sent.count == 1)
        #expect(try wake(fixture, 1)?.cadence.unchangedAcks == 1)
    }

    @Test(arguments: TestEngine.every)
    func noActivityEndsTheWakesAndTheWidgetsGoOn(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "cadence")
        try fixture.database.register(
            token(1), now: t0, expiresAt: t0 + fixture.configuration.expiryMilliseconds,
            widget: NewRegistration.Widget(token: PushToken(trusted: testToken(1001))), device: DeviceState(activities: 1))
        #expect(try sweep(fixture, at: 0.1).summary[.wake].sent == 1)
        #expect(try ack(fixture, 1, at: 0.2, AckReport(device: DeviceState(activities: 0))) == .matched)
        var withheld = 0
        var widgets = 0
        for minutes in stride(from: 5.1, through: 60.1, by: 5) {
            let run = try sweep(fixture, at: minutes)
            #expect(run.summary[.wake].sent == 0, "at \(minutes)")
            withheld += run.summary.withheldReasons()[.noActivity] ?? 0
            widgets += run.summary[.widgets].sent
        }
        #expect(withheld == 12, "one a base interval, each counted")
        #expect(widgets == 1, "the widgets target is pushed at its own interval")
        #expect(try fixture.row(1) != nil, "the registration stays until it expires")
    }

    /// An app that reports nothing: every push as before, nothing withheld.
    @Test(arguments: TestEngine.every)
    func anAppThatReportsNothingIsPushedAsBefore(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "cadence")
        try fixture.register([1], at: t0)
        for minutes in stride(from: 0.1, through: 30.1, by: 5) {
            let run = try sweep(fixture, at: minutes)
            #expect(run.pushed == [1] && run.summary.withheldReasons().isEmpty, "at \(minutes)")
            #expect(try ack(fixture, 1, at: minutes + 0.2, .none) == .matched)
        }
        #expect(try wake(fixture, 1)?.cadence == .base)
    }
}
