import LiveActivityDomain

/// What an ack needs of its registration (SPEC 3): what its interval is, whether a push of it may
/// be on its way, its attempts, and an ack already waiting for a push.
public struct AckSubject: Sendable, Equatable {
    public var activityType: ActivityType
    public var environment: APNsEnvironment
    public var requestedInterval: Int?
    public var nextPushAt: Int64
    /// Newest first.
    public var attempts: [PushAttempt]
    /// An ack that came while a push was on its way, for the sweep to judge (`AckRule.waits`).
    public var waitingAckAt: Int64?
    /// Its last 200 and its registration's time: where its cadence's change takes effect from.
    public var lastPushAt: Int64?
    public var registeredAt: Int64
    /// What its cadence is computed from, as stored.
    public var cadence: CadenceState

    public init(
        activityType: ActivityType, environment: APNsEnvironment, requestedInterval: Int?, nextPushAt: Int64,
        attempts: [PushAttempt], waitingAckAt: Int64?, lastPushAt: Int64? = nil, registeredAt: Int64 = 0,
        cadence: CadenceState = .base
    ) {
        self.lastPushAt = lastPushAt
        self.registeredAt = registeredAt
        self.cadence = cadence
        self.activityType = activityType
        self.environment = environment
        self.requestedInterval = requestedInterval
        self.nextPushAt = nextPushAt
        self.attempts = attempts
        self.waitingAckAt = waitingAckAt
    }
}

/// What an ack writes on its registration's row.
public enum AckWrite: Sendable, Equatable {
    /// The attempts with one of them marked acknowledged (`AckRule.marking`).
    case mark(RegistrationKey, attempts: [PushAttempt])
    /// The ack waits on the row for the push on its way, with what it said of the data
    /// (`changed`): the sweep judges it when it writes.
    case wait(RegistrationKey, at: Int64, changed: Bool?)
    /// The cadence's state after the ack (the device state it reported, the unchanged acks in a
    /// row after its match), and the wake target's next push as the change makes it (`Cadence`).
    case cadence(RegistrationKey, CadenceState, nextPushAt: Int64)
}

/// One ack as the figures count it (SPEC 4, 7): by its app and outcome in the hour it came and in
/// the lifetime totals; a match also in the hour, type and environment of the push it matched,
/// with its delay.
public struct AckCount: Sendable, Equatable {
    public var outcome: AckOutcome
    /// When the ack came (Unix ms).
    public var at: Int64
    /// A match: the push's hour, type and environment, and the delay from APNs's 200.
    public var match: Match?
    /// The app the ack came for (its location's, SPEC 6), whether or not it matched.
    public var app: AppName

    public struct Match: Sendable, Equatable {
        public var answeredAt: Int64
        public var activityType: ActivityType
        public var environment: APNsEnvironment
        public var delayMilliseconds: Int64

        public init(answeredAt: Int64, activityType: ActivityType, environment: APNsEnvironment, delayMilliseconds: Int64) {
            self.answeredAt = answeredAt
            self.activityType = activityType
            self.environment = environment
            self.delayMilliseconds = delayMilliseconds
        }
    }

    public init(outcome: AckOutcome, at: Int64, match: Match? = nil, app: AppName = .defaultApp) {
        self.outcome = outcome
        self.at = at
        self.match = match
        self.app = app
    }
}
