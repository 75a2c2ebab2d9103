import LiveActivityDomain

/// What a registration stores on each of its targets: its type, environment and times. Every
/// target of a registration carries them, so the sweep reads one row per push; only a
/// registration's own write (`TargetWrite`) changes them, on all its targets at once.
public struct RegistrationFacts: Sendable, Equatable {
    public var activityType: ActivityType
    public var environment: APNsEnvironment
    public var registeredAt: Int64
    public var expiresAt: Int64

    public init(activityType: ActivityType, environment: APNsEnvironment, registeredAt: Int64, expiresAt: Int64) {
        self.activityType = activityType
        self.environment = environment
        self.registeredAt = registeredAt
        self.expiresAt = expiresAt
    }
}

/// A target a registration write stores anew: unproven, never pushed, due at its registration's time.
public struct NewTarget: Sendable, Equatable {
    public var key: TargetKey
    /// The token it is pushed to.
    public var token: PushToken
    public var facts: RegistrationFacts
    public var requestedInterval: Int?
    /// Its cadence's state (a wake target's: the device state its registration reported).
    public var cadence: CadenceState

    public init(
        key: TargetKey, token: PushToken, facts: RegistrationFacts, requestedInterval: Int?, cadence: CadenceState = .base
    ) {
        self.cadence = cadence
        self.key = key
        self.token = token
        self.facts = facts
        self.requestedInterval = requestedInterval
    }
}

/// One change a registration write makes to the stored targets (SPEC 3), decided above the
/// contract (`StoreWrite+Batch`): an engine runs one statement per write and decides nothing.
public enum TargetWrite: Sendable, Equatable {
    /// Stores a target that is not stored.
    case insert(NewTarget)
    /// Refreshes a stored target with its registration: the registration's facts, due at
    /// `facts.registeredAt`, failures and their reason cleared, the interval the app asked for;
    /// its 200s forgotten unless `keepsProof` (a token proven in production is not proven in
    /// sandbox: SPEC 5, guard). Its push count, attempts and guard holds stay; its cadence's state
    /// is `cadence` (a registration resets what it does not say, and the unchanged acks).
    case refresh(TargetKey, RegistrationFacts, requestedInterval: Int?, keepsProof: Bool, cadence: CadenceState)
    /// Deletes a stored target (a widgets target the app no longer sends, or whose token changed).
    case delete(TargetKey)
}

/// What a registration write needs of a stored registration (SPEC 3): its environment and type,
/// and the token of each target it has and whether APNs ever answered that target 200 (the
/// counters follow a refresh by them: `TargetCounting`).
public struct StoredTargets: Sendable, Equatable {
    public var environment: APNsEnvironment
    public var activityType: ActivityType
    public var targets: [PushKind: Stored]
    /// The app the registration belongs to.
    public var app: AppName

    /// One stored target: its token, whether it was ever answered 200 and how many times.
    public struct Stored: Sendable, Equatable {
        public var token: PushToken
        public var proven: Bool
        public var wakeups: Int64

        public init(token: PushToken, proven: Bool, wakeups: Int64 = 0) {
            self.token = token
            self.proven = proven
            self.wakeups = wakeups
        }
    }

    public init(
        environment: APNsEnvironment, activityType: ActivityType, targets: [PushKind: Stored], app: AppName = .defaultApp
    ) {
        self.app = app
        self.environment = environment
        self.activityType = activityType
        self.targets = targets
    }

    /// Each target's token, by kind.
    public var tokens: [PushKind: PushToken] { targets.mapValues(\.token) }

    /// Each target as the counters count it.
    public var counted: [CountedTarget] {
        targets.map {
            CountedTarget(
                kind: $0.key, activityType: activityType, environment: environment, proven: $0.value.proven, app: app,
                wakeups: $0.value.wakeups)
        }
    }
}
