/// What a wake target's cadence is and why, in words for a person (SPEC 7: `history` shows the
/// cadence, why, and the device state the app last reported). One wording, which the operator's
/// `history` and the app's diagnostics both show.
extension Cadence {
    /// `stretched, 600 s: 6 matched acks in a row found the data unchanged`, or nil for the base
    /// cadence of an app that reported nothing to change it.
    public func explanation(_ state: CadenceState) -> String? {
        let seconds = effective(state) / 1000
        switch mode(state) {
        case .paused:
            if pause(state) == .noActivity {
                return "paused: the app found no activity to update; no wakes until it registers again"
            }
            let refresh = state.device.backgroundRefresh?.rawValue ?? "off"
            return "paused: Background App Refresh is \(refresh); no wakes until the app says it is available"
        case .lowPower:
            let stretch = stretchDoublings(state) > 0 ? " and \(Self.streak(state)) found the data unchanged" : ""
            return "low power, \(seconds) s: Low Power Mode is on\(stretch)"
        case .stretched:
            return "stretched, \(seconds) s: \(Self.streak(state)) found the data unchanged"
        case .base:
            return state == .base ? nil : "base, \(seconds) s"
        }
    }

    private static func streak(_ state: CadenceState) -> String {
        state.unchangedAcks == 1 ? "1 matched ack" : "\(state.unchangedAcks) matched acks in a row"
    }
}

extension DeviceState {
    /// `1 activity, Background App Refresh available, Low Power Mode off`: what was said, nil
    /// for nothing.
    public var words: String? {
        var parts: [String] = []
        if let activities { parts.append(activities == 1 ? "1 activity" : "\(activities) activities") }
        if let backgroundRefresh { parts.append("Background App Refresh \(backgroundRefresh.rawValue)") }
        if let lowPower { parts.append("Low Power Mode \(lowPower ? "on" : "off")") }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
