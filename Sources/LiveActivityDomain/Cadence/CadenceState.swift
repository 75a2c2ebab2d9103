/// What a wake target's cadence is computed from, as stored with it (SPEC 5, "Cadence"): the
/// device state the app last reported and how many matched acks in a row said its data had not
/// changed. An engine stores these values and the due time it is handed; `Cadence` decides.
public struct CadenceState: Sendable, Equatable, Hashable {
    public var device: DeviceState
    /// Consecutive matched acks saying `changed: false`, since the last `true` or registration.
    public var unchangedAcks: Int

    public init(device: DeviceState = .unknown, unchangedAcks: Int = 0) {
        self.device = device
        self.unchangedAcks = max(0, unchangedAcks)
    }

    /// Nothing reported: the cadence is the base, as for an app that sends no device state.
    public static let base = CadenceState()

    /// After a matched ack that said `changed` (nil: it did not say, and the streak stays).
    public func acknowledged(changed: Bool?) -> CadenceState {
        guard let changed else { return self }
        var next = self
        next.unchangedAcks = changed ? 0 : unchangedAcks.addingSaturated(1)
        return next
    }
}
