/// When the sweep will next push a wake target, as `decide` will judge it at the ticks to come:
/// what the app's diagnostics tell the person waiting for an update (SPEC 3).
extension Cadence {
    /// The time (ms) of the wake target's next push, from what is stored of it: its due time,
    /// its last push answered 200 and its registration; nil while it is paused (no wake goes
    /// until the app says otherwise). The ticks before are withheld (`decide`), so the push comes
    /// at the later of the stored due time (a back-off's too) and one effective interval after
    /// the last push; a target not pushed since it registered goes at its due time.
    public func nextPush(_ state: CadenceState, lastPushAt: Int64?, registeredAt: Int64, storedNextPushAt: Int64) -> Int64? {
        guard pause(state) == nil else { return nil }
        guard let lastPushAt, lastPushAt >= registeredAt else { return storedNextPushAt }
        return max(storedNextPushAt, lastPushAt.addingSaturated(effective(state)))
    }
}
