import LiveActivityDomain

/// A registration as the API writes it (SPEC 3): stored new, or refreshing the stored one, with
/// the widget extension's token when the app sent one.
public struct NewRegistration: Sendable, Equatable {
    public var token: PushToken
    public var activityType: ActivityType
    public var environment: APNsEnvironment
    /// Now (Unix ms): also its targets' next push, so the first push goes out at the next sweep.
    public var registeredAt: Int64
    public var expiresAt: Int64
    /// The seconds the app asked for between wakes, nil for none (a refresh without one clears it).
    public var requestedInterval: Int?
    /// Its targets of other kinds (a widgets target: `widgetPushToken`, `widgetInterval`), at
    /// most one per kind: a refresh without one removes the stored one (SPEC 3).
    public var others: [Other]
    /// The app it belongs to (SPEC 3 `LIVEACTIVITY_APP`).
    public var app: AppName
    /// What the app reported with it (SPEC 3, "Device state"): its wake target's state anew,
    /// what it omits unknown (a registration replaces its registration whole).
    public var device: DeviceState = .unknown

    /// A target of another kind the app asked for: the kind, its own token, and the seconds the
    /// app asked for between its pushes.
    public struct Other: Sendable, Equatable {
        public var kind: PushKind
        public var token: PushToken
        public var requestedInterval: Int?

        public init(kind: PushKind, token: PushToken, requestedInterval: Int? = nil) {
            self.kind = kind
            self.token = token
            self.requestedInterval = requestedInterval
        }
    }

    /// The widget extension's token and the seconds asked between its reloads.
    public struct Widget: Sendable, Equatable {
        public var token: PushToken
        public var requestedInterval: Int?

        public init(token: PushToken, requestedInterval: Int? = nil) {
            self.token = token
            self.requestedInterval = requestedInterval
        }
    }

    public init(
        token: PushToken, activityType: ActivityType, environment: APNsEnvironment, registeredAt: Int64, expiresAt: Int64,
        requestedInterval: Int? = nil, others: [Other] = [], app: AppName = .defaultApp
    ) {
        self.app = app
        self.token = token
        self.activityType = activityType
        self.environment = environment
        self.registeredAt = registeredAt
        self.expiresAt = expiresAt
        self.requestedInterval = requestedInterval
        self.others = others
    }

    /// With a widgets target, or none.
    public init(
        token: PushToken, activityType: ActivityType, environment: APNsEnvironment, registeredAt: Int64, expiresAt: Int64,
        requestedInterval: Int? = nil, widget: Widget?, app: AppName = .defaultApp
    ) {
        self.init(
            token: token, activityType: activityType, environment: environment, registeredAt: registeredAt,
            expiresAt: expiresAt, requestedInterval: requestedInterval,
            others: widget.map { [Other(kind: .widgets, token: $0.token, requestedInterval: $0.requestedInterval)] } ?? [],
            app: app)
    }

    /// What every target of it stores of the registration.
    public var facts: RegistrationFacts {
        RegistrationFacts(activityType: activityType, environment: environment, registeredAt: registeredAt, expiresAt: expiresAt)
    }

    /// The targets it asks for: its wake target, then each other kind's it has.
    /// The registration's key: its app and device token.
    public var key: RegistrationKey { RegistrationKey(app: app, token: token) }

    public var targets: [NewTarget] {
        [
            NewTarget(
                key: .wake(token, app: app), token: token, facts: facts, requestedInterval: requestedInterval,
                cadence: CadenceState(device: device))
        ]
            + others.map { other in
                NewTarget(
                    key: TargetKey(registration: token, kind: other.kind, app: app), token: other.token, facts: facts,
                    requestedInterval: other.requestedInterval)
            }
    }
}

/// How many registrations each app has stored, and how many of them were never answered 200 in
/// each environment: from counters the database keeps as rows come and go, never a scan (SPEC 3's
/// caps, counted per app). The unproven cap counts per app and environment, so junk sent to one
/// (a quiet sandbox) never refuses a new device in another (SPEC 5, guard).
public struct RegistrationCounts: Sendable, Equatable {
    public var total: [AppName: Int]
    public var unproven: [AppName: [APNsEnvironment: Int]]

    public init(total: [AppName: Int], unproven: [AppName: [APNsEnvironment: Int]]) {
        self.total = total
        self.unproven = unproven
    }

    /// `app`'s registrations.
    public func total(of app: AppName) -> Int { total[app, default: 0] }

    /// `app`'s registrations never answered 200 in `environment`.
    public func unproven(of app: AppName, in environment: APNsEnvironment) -> Int { unproven[app]?[environment] ?? 0 }

    /// Counts `app`'s new registration in `environment`, unproven.
    public mutating func add(_ app: AppName, in environment: APNsEnvironment) {
        total[app, default: 0] += 1
        unproven[app, default: [:]][environment, default: 0] += 1
    }

    /// Takes `app`'s registration in `environment` off the counts, and off its unproven ones
    /// when it was `unproven`.
    public mutating func remove(_ app: AppName, in environment: APNsEnvironment, unproven wasUnproven: Bool) {
        total[app] = max(0, total[app, default: 0] - 1)
        if wasUnproven { unproven[app, default: [:]][environment] = max(0, self.unproven(of: app, in: environment) - 1) }
    }
}

extension RegistrationCounts {
    /// The counts of the counters' rows of wake targets (one per registration) by app and
    /// environment; rows of an app or environment this build does not know count nowhere (no
    /// request of theirs can come).
    public init(_ groups: [(app: String?, environment: String?, total: Int64, unproven: Int64)]) {
        var total: [AppName: Int] = [:]
        var unproven: [AppName: [APNsEnvironment: Int]] = [:]
        for group in groups {
            guard let app = group.app.flatMap(AppName.init) else { continue }
            total[app] = total[app, default: 0].addingSaturated(Int(clamping: max(0, group.total)))
            if let environment = group.environment.flatMap(APNsEnvironment.init(rawValue:)) {
                unproven[app, default: [:]][environment] = (unproven[app]?[environment] ?? 0)
                    .addingSaturated(Int(clamping: max(0, group.unproven)))
            }
        }
        self.init(total: total, unproven: unproven)
    }
}
