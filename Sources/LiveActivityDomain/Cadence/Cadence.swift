/// A wake target's cadence (SPEC 5, "Cadence: wakes where they can help"): from its base
/// interval and what the app last said, whether a wake can help now, how often, and why not. The
/// one home of these rules: the sweep asks it at each due row, the responder when an ack or a
/// registration changes the state, `history` and the diagnostics to say why; no engine repeats
/// them (an engine stores `CadenceState` and the due time it is handed).
///
/// The sweep still reads a wake target every base interval (its *tick*): at each tick where the
/// effective interval withholds the wake, the wake the base would have sent is counted by reason
/// (`Withheld`) and the row is due at the next tick, so the count is exact, a shorter interval
/// takes effect within one base interval, and consecutive pushes stay between E - 30 s and E + 60 s
/// apart (the ticks are laid from the last push, not from when each sweep ran).
public struct Cadence: Sendable, Equatable {
    /// The base interval, ms: the app's `interval` clamped, else its type's (`IntervalPolicy`).
    public var base: Int64
    /// `LIVEACTIVITY_INTERVAL_MAX`, ms: no stretch or low power goes beyond it (nor below the base).
    public var maximum: Int64
    /// `LIVEACTIVITY_STRETCH_AFTER`: unchanged acks in a row per doubling; 0 never stretches.
    public var stretchAfter: Int

    /// Why a wake was not sent (SPEC 5: counted per app, type and environment).
    public enum Withheld: String, Sendable, CaseIterable, Hashable {
        /// The app found no activity to update (`activities: 0`).
        case noActivity
        /// Background App Refresh denied or restricted: a wake launches nothing.
        case paused
        /// Low Power Mode doubled the interval.
        case lowPower
        /// Unchanged data stretched it.
        case stretched
    }

    /// What the cadence is, in the words the API and `history` use.
    public enum Mode: String, Sendable, Equatable {
        case base, stretched, lowPower, paused
    }

    public init(base: Int64, maximum: Int64, stretchAfter: Int) {
        self.base = max(1, base)
        self.maximum = maximum
        self.stretchAfter = max(0, stretchAfter)
    }

    /// The longest the effective interval may be: the maximum, but never below the base (a type
    /// whose own interval is above the maximum keeps it, as `IntervalPolicy` says).
    private var ceiling: Int64 { max(base, maximum) }

    /// Why a wake cannot help at all now (nil: it can): no activity first, then refresh off.
    public func pause(_ state: CadenceState) -> Withheld? {
        if state.device.activities == 0 { return .noActivity }
        if let refresh = state.device.backgroundRefresh, refresh != .available { return .paused }
        return nil
    }

    /// The doublings unchanged data earned (0 when stretching is off), bounded so that a stored
    /// streak of any size cannot overflow.
    public func stretchDoublings(_ state: CadenceState) -> Int {
        guard stretchAfter > 0 else { return 0 }
        return min(state.unchangedAcks / stretchAfter, 40)
    }

    /// The interval without low power: the base doubled for each stretch, at most the ceiling.
    public func stretched(_ state: CadenceState) -> Int64 {
        let doublings = stretchDoublings(state)
        guard doublings > 0 else { return base }
        return base > ceiling >> Int64(doublings) ? ceiling : min(ceiling, base << Int64(doublings))
    }

    /// The effective interval, ms: low power and a stretch multiply, never above the ceiling.
    /// (A paused target has one too; it is just not pushed.)
    public func effective(_ state: CadenceState) -> Int64 {
        let stretched = stretched(state)
        guard state.device.lowPower == true else { return stretched }
        return stretched > ceiling / 2 ? ceiling : stretched * 2
    }

    /// What the cadence is now.
    public func mode(_ state: CadenceState) -> Mode {
        if pause(state) != nil { return .paused }
        if state.device.lowPower == true && effective(state) > base { return .lowPower }
        return stretched(state) > base ? .stretched : .base
    }

    /// What the sweep does with a wake target it read as due at `now` (ms), last answered 200 at
    /// `lastPushAt` (nil: never) and registered at `registeredAt`; `slack` is how far ahead of
    /// `now` the sweep reads due rows (`SweepTiming.dueSlackMilliseconds`).
    public enum Decision: Sendable, Equatable {
        /// Push it.
        case push
        /// Not now: the wake the base would have sent is counted for `reason`, and the row is
        /// due again at `nextTick`.
        case withhold(Withheld, nextTick: Int64)
    }

    public func decide(
        _ state: CadenceState, lastPushAt: Int64?, registeredAt: Int64, now: Int64,
        slack: Int64 = SweepTiming.dueSlackMilliseconds
    ) -> Decision {
        // Ticks are laid from the last push, else from the registration.
        let anchor = max(lastPushAt ?? registeredAt, registeredAt)
        if let reason = pause(state) { return .withhold(reason, nextTick: nextTick(after: now, anchor: anchor, slack: slack)) }
        // The first push after a registration (or a refresh of one) goes out at once (SPEC 5.3).
        guard let lastPushAt, lastPushAt >= registeredAt else { return .push }
        let reach = now.addingSaturated(slack)
        let due = lastPushAt.addingSaturated(effective(state))
        if due <= reach { return .push }
        // Low power's share of the wait comes after the stretch's: a tick the stretch alone
        // would have pushed at is withheld for low power.
        let reason: Withheld = lastPushAt.addingSaturated(stretched(state)) <= reach ? .lowPower : .stretched
        return .withhold(reason, nextTick: min(due, nextTick(after: now, anchor: lastPushAt, slack: slack)))
    }

    /// The first tick (`anchor` + n x base) beyond what a sweep at `now` reads.
    func nextTick(after now: Int64, anchor: Int64, slack: Int64) -> Int64 {
        let reach = now.addingSaturated(slack)
        guard reach >= anchor else { return anchor }
        let passed = (reach - anchor) / base
        return anchor.addingSaturated(passed.addingSaturated(1).multipliedSaturated(by: base))
    }

    /// When a wake target whose state just changed (an ack, SPEC 5: "takes effect from the
    /// target's last push") is next due, given the due time stored: sooner when the new
    /// effective interval has run out since its last push (at once when that is past), else as
    /// stored (the ticks find the rest). A paused one keeps its ticks.
    public func dueAfterChange(
        _ state: CadenceState, lastPushAt: Int64?, registeredAt: Int64, storedNextPushAt: Int64, now: Int64
    ) -> Int64 {
        guard pause(state) == nil else { return storedNextPushAt }
        guard let lastPushAt, lastPushAt >= registeredAt else { return min(storedNextPushAt, now) }
        return min(storedNextPushAt, max(now, lastPushAt.addingSaturated(effective(state))))
    }
}
