/// A push target selected for pushing (SPEC 4, 5): what the sweep's rules decide about, read a
/// page at a time in the due order (`DuePosition`), with what it needs of its registration.
public struct DueTarget: Sendable, Equatable {
    /// Its registration and kind.
    public var key: TargetKey
    /// The token it is pushed to: the device token for a wake, the widget extension's for widgets.
    public var token: PushToken
    /// Its registration's type, environment and registration time.
    public var activityType: ActivityType
    public var environment: APNsEnvironment
    public var registeredAt: Int64
    /// Whether APNs ever accepted a push to it (a 200; a re-registration keeps this): what the
    /// mass-deletion guard counts, so tokens a stranger made up cannot trip it (SPEC 5).
    public var proven: Bool
    /// Failures in a row before this push, which set the back-off after another one.
    public var failures: Int
    /// When it was due: with the key, its place in the due order.
    public var nextPushAt: Int64
    /// The seconds the app asked for (SPEC 3 `interval`, `widgetInterval`), nil for none.
    public var requestedInterval: Int?
    /// Its last 200 before this sweep (the hourly figures count registration-hours by it).
    public var lastPushAt: Int64?
    /// Times the mass-deletion guard held it as a fresh deployment's junk (SPEC 5).
    public var guardHolds: Int
    /// What its cadence is computed from (a wake target's; `.base` for other kinds).
    public var cadence: CadenceState

    public init(
        key: TargetKey, token: PushToken? = nil, activityType: ActivityType, environment: APNsEnvironment,
        registeredAt: Int64, proven: Bool = false, failures: Int = 0, nextPushAt: Int64 = 0, requestedInterval: Int? = nil,
        lastPushAt: Int64? = nil, guardHolds: Int = 0, cadence: CadenceState = .base
    ) {
        self.cadence = cadence
        self.key = key
        self.token = token ?? key.registration
        self.activityType = activityType
        self.environment = environment
        self.registeredAt = registeredAt
        self.proven = proven
        self.failures = failures
        self.nextPushAt = nextPushAt
        self.requestedInterval = requestedInterval
        self.lastPushAt = lastPushAt
        self.guardHolds = guardHolds
    }

    /// A wake target, whose token is its registration's.
    public init(
        wake token: PushToken, activityType: ActivityType, environment: APNsEnvironment, registeredAt: Int64,
        proven: Bool = false, failures: Int = 0, nextPushAt: Int64 = 0, requestedInterval: Int? = nil,
        lastPushAt: Int64? = nil, guardHolds: Int = 0
    ) {
        self.init(
            key: .wake(token), activityType: activityType, environment: environment, registeredAt: registeredAt,
            proven: proven, failures: failures, nextPushAt: nextPushAt, requestedInterval: requestedInterval,
            lastPushAt: lastPushAt, guardHolds: guardHolds)
    }

    public var kind: PushKind { key.kind }

    /// The app its registration belongs to.
    public var app: AppName { key.app }

    /// Its app and kind: what the sweep's counts are kept per.
    public var appKind: AppKind { AppKind(key.kind, of: key.app) }

    /// Its app's pushes of its kind to its environment.
    public var scope: PushScope { PushScope(environment: environment, kind: kind, app: app) }

    /// Its place in the due order.
    public var position: DuePosition { DuePosition(nextPushAt: nextPushAt, key: key) }
}
