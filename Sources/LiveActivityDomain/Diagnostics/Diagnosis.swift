/// What `/wakeup/diagnostics` tells the person holding the phone of its one registration (SPEC
/// 3): computed once from the stored registration, the settings and the clock, then rendered by
/// the API. It holds no token, address or apns-id: only what the answer shows.
public struct Diagnosis: Sendable, Equatable {
    /// One push target as the answer shows it.
    public struct Target: Sendable, Equatable {
        public var kind: PushKind
        /// The effective interval, seconds (the cadence's for a wake target).
        public var interval: Int64
        /// The wake target's cadence; nil for a kind that has none (widgets keep their own interval).
        public var cadence: Cadence.Mode?
        /// Seconds until its next push; nil while none will go (paused).
        public var nextPushIn: Int64?
        /// Its last answers, newest first (at most `PushAttempt.kept`).
        public var attempts: [PushAttempt]
    }

    public var activityType: ActivityType
    public var environment: APNsEnvironment
    /// Seconds until the registration expires (0 once it is due to).
    public var expiresIn: Int64
    public var wake: Target
    /// Its widgets target, nil for none.
    public var widgets: Target?
    public var hints: [DiagnosticHint]

    /// The diagnosis of `registration` at `now` (ms); `expiry` is the registrations' lifetime (ms),
    /// `widgetToken` the widget token the app says it has, if it said.
    public init(
        _ registration: Registration, policy: IntervalPolicy, expiry: Int64, now: Int64, widgetToken: PushToken? = nil
    ) {
        activityType = registration.activityType
        environment = registration.environment
        expiresIn = Self.seconds(registration.registeredAt.addingSaturated(expiry).subtractingSaturated(now))
        let wakeTarget = registration.wake
        let cadence = policy.cadence(registration.activityType, requested: wakeTarget.requestedInterval)
        let next = cadence.nextPush(
            wakeTarget.cadence, lastPushAt: wakeTarget.lastPushAt, registeredAt: registration.registeredAt,
            storedNextPushAt: wakeTarget.nextPushAt)
        wake = Target(
            kind: .wake, interval: cadence.effective(wakeTarget.cadence) / 1000, cadence: cadence.mode(wakeTarget.cadence),
            nextPushIn: next.map { Self.seconds($0.subtractingSaturated(now), roundingUp: true) },
            attempts: Array(wakeTarget.attempts.prefix(PushAttempt.kept)))
        widgets = registration.target(.widgets).map { target in
            Target(
                kind: .widgets,
                interval: Int64(
                    policy.effectiveSeconds(.widgets, registration.activityType, requested: target.requestedInterval)),
                cadence: nil, nextPushIn: Self.seconds(target.nextPushAt.subtractingSaturated(now), roundingUp: true),
                attempts: Array(target.attempts.prefix(PushAttempt.kept)))
        }
        hints = DiagnosticHint.hints(
            for: registration, policy: policy, expiry: expiry, now: now, widgetToken: widgetToken)
    }

    /// Whole seconds of `milliseconds`, never negative (a time past is "now": 0).
    static func seconds(_ milliseconds: Int64, roundingUp: Bool = false) -> Int64 {
        guard milliseconds > 0 else { return 0 }
        return roundingUp ? milliseconds / 1000 + (milliseconds % 1000 == 0 ? 0 : 1) : milliseconds / 1000
    }
}
