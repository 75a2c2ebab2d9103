import LiveActivityDomain
import Testing

/// SPEC 5, "Cadence: wakes where they can help", as a table: the effective interval from the
/// base and what the app reported, and what the sweep does with a due wake target.
@Suite struct CadenceTests {
    static let minute: Int64 = 60_000
    /// Charging's 5 minutes, the 1-hour maximum, doubling after 3 unchanged acks.
    let cadence = Cadence(base: 5 * minute, maximum: 60 * minute, stretchAfter: 3)

    static func state(
        activities: Int? = nil, refresh: BackgroundRefresh? = nil, lowPower: Bool? = nil, unchanged: Int = 0
    ) -> CadenceState {
        CadenceState(
            device: DeviceState(activities: activities, backgroundRefresh: refresh, lowPower: lowPower), unchangedAcks: unchanged)
    }

    struct Row: Sendable, CustomStringConvertible {
        var state: CadenceState
        var minutes: Int64
        var mode: Cadence.Mode
        var description: String { "\(state) -> \(minutes) min, \(mode)" }
    }

    static let rows: [Row] = [
        Row(state: .base, minutes: 5, mode: .base),
        Row(state: state(activities: 2, refresh: .available, lowPower: false), minutes: 5, mode: .base),
        Row(state: state(lowPower: true), minutes: 10, mode: .lowPower),
        Row(state: state(unchanged: 2), minutes: 5, mode: .base),
        Row(state: state(unchanged: 3), minutes: 10, mode: .stretched),
        Row(state: state(unchanged: 5), minutes: 10, mode: .stretched),
        Row(state: state(unchanged: 6), minutes: 20, mode: .stretched),
        Row(state: state(unchanged: 9), minutes: 40, mode: .stretched),
        // Never above the maximum, however long the streak.
        Row(state: state(unchanged: 12), minutes: 60, mode: .stretched),
        Row(state: state(unchanged: 1_000_000), minutes: 60, mode: .stretched),
        // Low power and a stretch multiply, still at most the maximum.
        Row(state: state(lowPower: true, unchanged: 3), minutes: 20, mode: .lowPower),
        Row(state: state(lowPower: true, unchanged: 9), minutes: 60, mode: .lowPower),
        // Paused: no activity, or Background App Refresh off; the interval is kept for when it resumes.
        Row(state: state(activities: 0), minutes: 5, mode: .paused),
        Row(state: state(refresh: .denied), minutes: 5, mode: .paused),
        Row(state: state(refresh: .restricted, lowPower: true), minutes: 10, mode: .paused),
    ]

    @Test(arguments: rows)
    func theEffectiveIntervalAndTheMode(row: Row) {
        #expect(cadence.effective(row.state) == row.minutes * Self.minute)
        #expect(cadence.mode(row.state) == row.mode)
    }

    @Test func stretchingOffNeverStretchesAndABaseAboveTheMaximumStays() {
        let off = Cadence(base: 5 * Self.minute, maximum: 60 * Self.minute, stretchAfter: 0)
        #expect(off.effective(Self.state(unchanged: 100)) == 5 * Self.minute)
        // A type whose own interval is above the maximum keeps it (IntervalPolicy's rule).
        let long = Cadence(base: 90 * Self.minute, maximum: 60 * Self.minute, stretchAfter: 3)
        #expect(long.effective(Self.state(lowPower: true, unchanged: 9)) == 90 * Self.minute)
    }

    @Test func anAcksChangedMovesTheStreak() {
        let state = Self.state(unchanged: 4)
        #expect(state.acknowledged(changed: false).unchangedAcks == 5)
        #expect(state.acknowledged(changed: true).unchangedAcks == 0)
        #expect(state.acknowledged(changed: nil) == state, "an ack that does not say leaves it")
    }

    // MARK: - At a due row

    let registered: Int64 = 1_800_000_000_000

    func decide(_ state: CadenceState, lastPush: Int64?, now: Int64) -> Cadence.Decision {
        cadence.decide(state, lastPushAt: lastPush, registeredAt: registered, now: now, slack: 30_000)
    }

    @Test func theFirstPushAfterARegistrationGoesOutWhateverTheStreak() {
        #expect(decide(Self.state(lowPower: true, unchanged: 9), lastPush: nil, now: registered) == .push)
        // Pushed before a refresh of the registration: the refresh is pushed at once too.
        #expect(decide(Self.state(lowPower: true), lastPush: registered - Self.minute, now: registered) == .push)
    }

    @Test func aPausedTargetIsWithheldAtEachTickLaidFromItsLastPush() {
        let last = registered + 10 * Self.minute
        #expect(
            decide(Self.state(refresh: .denied), lastPush: last, now: last + 5 * Self.minute)
                == .withhold(.paused, nextTick: last + 10 * Self.minute))
        #expect(
            decide(Self.state(activities: 0), lastPush: last, now: last + 61 * Self.minute)
                == .withhold(.noActivity, nextTick: last + 65 * Self.minute))
        // Never pushed: the ticks are laid from the registration.
        #expect(
            decide(Self.state(refresh: .restricted), lastPush: nil, now: registered)
                == .withhold(.paused, nextTick: registered + 5 * Self.minute))
    }

    @Test func aLongerIntervalWithholdsEachBaseTickUntilItHasRunOut() {
        let last = registered + 10 * Self.minute
        let stretched = Self.state(unchanged: 6)  // 20 minutes
        #expect(
            decide(stretched, lastPush: last, now: last + 5 * Self.minute)
                == .withhold(.stretched, nextTick: last + 10 * Self.minute))
        #expect(
            decide(stretched, lastPush: last, now: last + 15 * Self.minute + 20_000)
                == .withhold(.stretched, nextTick: last + 20 * Self.minute))
        // Read 30 s ahead: due at 20 minutes, so a sweep at 19:30 pushes (no closer than I - 30 s).
        #expect(decide(stretched, lastPush: last, now: last + 19 * Self.minute + 30_000) == .push)
        // Low power's share comes after the stretch's: 10 minutes of stretch, then 10 of low power.
        let both = Self.state(lowPower: true, unchanged: 3)  // 20 minutes
        #expect(
            decide(both, lastPush: last, now: last + 5 * Self.minute) == .withhold(.stretched, nextTick: last + 10 * Self.minute))
        #expect(
            decide(both, lastPush: last, now: last + 10 * Self.minute) == .withhold(.lowPower, nextTick: last + 15 * Self.minute))
        #expect(decide(both, lastPush: last, now: last + 20 * Self.minute) == .push)
    }

    @Test func aChangeTakesEffectFromTheLastPush() {
        let last = registered + 10 * Self.minute
        let stored = last + 5 * Self.minute
        // Back to base 3 minutes after a push: due at its base from that push.
        #expect(
            cadence.dueAfterChange(
                .base, lastPushAt: last, registeredAt: registered, storedNextPushAt: stored, now: last + 3 * Self.minute)
                == last + 5 * Self.minute)
        // Already past: at the next sweep.
        let later = last + 8 * Self.minute
        #expect(
            cadence.dueAfterChange(
                .base, lastPushAt: last, registeredAt: registered, storedNextPushAt: last + 10 * Self.minute, now: later)
                == later)
        // Longer: the stored tick stands (the sweep withholds there).
        #expect(
            cadence.dueAfterChange(
                Self.state(lowPower: true), lastPushAt: last, registeredAt: registered, storedNextPushAt: stored, now: later)
                == stored)
        // Paused: the ticks go on as stored.
        #expect(
            cadence.dueAfterChange(
                Self.state(refresh: .denied), lastPushAt: last, registeredAt: registered, storedNextPushAt: stored, now: later)
                == stored)
    }

    @Test func merging() {
        let stored = DeviceState(activities: 2, backgroundRefresh: .available, lowPower: false)
        #expect(
            stored.merging(DeviceState(lowPower: true))
                == DeviceState(activities: 2, backgroundRefresh: .available, lowPower: true))
        #expect(stored.merging(.unknown) == stored)
    }
}
