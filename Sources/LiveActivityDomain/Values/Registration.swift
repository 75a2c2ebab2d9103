/// One stored registration (SPEC 4) and its push targets, as `history` and the figures read it
/// back: the registration's own facts, and per target its token, interval, schedule, failures and
/// attempts. Times are Unix milliseconds.
public struct Registration: Equatable, Sendable {
    /// The device token the app registered: the registration's key and its wake target's token.
    public var token: PushToken
    /// The app it belongs to (the same token under two apps is two registrations).
    public var app: AppName
    public var activityType: ActivityType
    public var environment: APNsEnvironment
    public var registeredAt: Int64
    public var expiresAt: Int64
    /// Its wake target: every registration has one (its token is the registration's).
    public var wake: PushTarget
    /// Its targets of other kinds (a widgets target), in the order kinds are listed.
    public var others: [PushTarget]

    public init(
        token: PushToken, activityType: ActivityType, environment: APNsEnvironment, registeredAt: Int64, expiresAt: Int64,
        wake: PushTarget, others: [PushTarget] = [], app: AppName = .defaultApp
    ) {
        self.token = token
        self.app = app
        self.activityType = activityType
        self.environment = environment
        self.registeredAt = registeredAt
        self.expiresAt = expiresAt
        self.wake = wake
        self.others = others
    }

    /// Every target: the wake target first.
    public var targets: [PushTarget] { [wake] + others }

    /// Its target of `kind`, if it has one.
    public func target(_ kind: PushKind) -> PushTarget? { targets.first { $0.kind == kind } }

    // MARK: - The wake target's facts, by the names a registration always had

    public var nextPushAt: Int64 { wake.nextPushAt }
    public var lastPushAt: Int64? { wake.lastPushAt }
    public var wakeupCount: Int64 { wake.pushCount }
    public var consecutiveFailures: Int64 { wake.consecutiveFailures }
    public var lastError: String? { wake.lastError }
    /// The seconds the app asked for between wakes (SPEC 3 `interval`), nil for none.
    public var requestedInterval: Int? { wake.requestedInterval }
}

/// One push target of a registration as stored (SPEC 4): one token, one kind, its own interval,
/// due time, failures, reason and last attempts.
public struct PushTarget: Equatable, Sendable {
    public var kind: PushKind
    /// The token pushed: the device token for a wake, the widget extension's for widgets.
    public var token: PushToken
    /// The seconds the app asked for (`interval`, `widgetInterval`), nil for none.
    public var requestedInterval: Int?
    public var nextPushAt: Int64
    public var lastPushAt: Int64?
    /// Pushes answered 200 (wake-ups for a wake target).
    public var pushCount: Int64
    public var consecutiveFailures: Int64
    public var lastError: String?
    /// What its cadence is computed from (a wake target's: SPEC 5, "Cadence").
    public var cadence: CadenceState
    /// Its last attempts, newest first (read for `history`; empty where a read does not need them).
    public var attempts: [PushAttempt]

    public init(
        kind: PushKind, token: PushToken, requestedInterval: Int? = nil, nextPushAt: Int64, lastPushAt: Int64? = nil,
        pushCount: Int64 = 0, consecutiveFailures: Int64 = 0, lastError: String? = nil, cadence: CadenceState = .base,
        attempts: [PushAttempt] = []
    ) {
        self.cadence = cadence
        self.kind = kind
        self.token = token
        self.requestedInterval = requestedInterval
        self.nextPushAt = nextPushAt
        self.lastPushAt = lastPushAt
        self.pushCount = pushCount
        self.consecutiveFailures = consecutiveFailures
        self.lastError = lastError
        self.attempts = attempts
    }
}
