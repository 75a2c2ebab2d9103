/// The one reading of a registration into hints (SPEC 3 and 7: the diagnostics route and
/// `history` print the same), from the plain values a store hands back: the registration with
/// its targets' attempts, the settings' intervals and lifetime, and the clock.
extension DiagnosticHint {
    /// Wakes answered 200, newest first and none acknowledged, from which the phone is taken not
    /// to wake (one unacked wake is a phone that was busy; three is a pattern).
    public static let unackedWakes = 3
    /// How close to its expiry a registration is said to expire soon, ms.
    public static let expiringWithin: Int64 = 30 * 60_000

    /// The hints for `registration` at `now` (ms), in `Code` order, one per code. `expiry` is
    /// the registrations' lifetime (ms, from the registration: the sweep's rule); `widgetToken`,
    /// the widget extension's token the app says it has (the diagnostics' optional field), if any.
    public static func hints(
        for registration: Registration, policy: IntervalPolicy, expiry: Int64, now: Int64, widgetToken: PushToken? = nil
    ) -> [DiagnosticHint] {
        var hints: [DiagnosticHint] = []
        // A failure or hold since a target's last 200 (or its registration: both clear it).
        for target in registration.targets {
            guard let reason = target.lastError else { continue }
            hints.append(Self.removes(reason) ? .tokenRejected(target.kind) : .serverFault)
        }
        let wake = registration.wake
        if wake.kind.acknowledged {
            // The 200s since the last acked one: a failure between them neither woke the phone
            // nor says it would have.
            let unacked = wake.attempts.lazy.filter { $0.status == 200 }.prefix { $0.ackedAt == nil }.count
            if unacked >= unackedWakes { hints.append(.notWaking(unacked)) }
        }
        let cadence = policy.cadence(registration.activityType, requested: wake.requestedInterval)
        let state = wake.cadence
        switch cadence.pause(state) {
        case .noActivity?: hints.append(.noActivity)
        case .paused?: hints.append(.paused(state.device.backgroundRefresh))
        default:
            if cadence.mode(state) == .lowPower { hints.append(.lowPower(every: cadence.effective(state))) }
            if cadence.stretchDoublings(state) > 0 {
                hints.append(.stretched(unchanged: state.unchangedAcks, every: cadence.effective(state)))
            }
        }
        let remaining = registration.registeredAt.addingSaturated(expiry).subtractingSaturated(now)
        if remaining <= expiringWithin { hints.append(.expiringSoon(in: remaining)) }
        if let widgetToken, registration.target(.widgets)?.token != widgetToken { hints.append(.noWidgetsTarget) }
        return ordered(hints)
    }

    /// The hints for a token with no registration in the app.
    public static let unregistered: [DiagnosticHint] = [.notRegistered]

    /// Whether a target's last reason is APNs's word that its token is gone (410: Unregistered,
    /// ExpiredToken). A target that outlived such an answer was registered again after the
    /// token's end, and the token still fails. Any other reason on a target that is still there
    /// is the server's or Apple's side: a back-off (429, 5xx, no connection), a fault that held
    /// the app's pushes, or a rejection the mass-deletion guard held (a rejection it did not
    /// hold deleted the target).
    static func removes(_ reason: String) -> Bool {
        reason == "HTTP410" || APNsReason.documented[reason]?.meaning == .gone
    }

    /// One hint per code, the first found, in `Code` order.
    static func ordered(_ hints: [DiagnosticHint]) -> [DiagnosticHint] {
        Code.allCases.compactMap { code in hints.first { $0.code == code } }
    }
}
