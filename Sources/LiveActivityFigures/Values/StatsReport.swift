import LiveActivityDomain

/// The operator's snapshot of SPEC section 7 (read by `StatsReport.gather` in Storage/, without
/// reading the registrations themselves).
public struct StatsReport: Sendable {
    /// Push targets of one kind, activity type and environment, from the counters: the wake
    /// targets are the registrations.
    public struct Group: Sendable, Equatable {
        public var activityType: ActivityType
        public var environment: APNsEnvironment
        public var count: Int64
        public var kind: PushKind
        /// The app (`default` for the default app: SPEC 6 "Several apps"), as stored: a name read
        /// back is shown escaped, never refused.
        public var app: AppName

        public init(
            activityType: ActivityType, environment: APNsEnvironment, count: Int64, kind: PushKind = .wake,
            app: AppName = .defaultApp
        ) {
            self.activityType = activityType
            self.environment = environment
            self.count = count
            self.kind = kind
            self.app = app
        }
    }

    /// One of the most woken registrations: its token's first 8 characters and its wake-ups.
    public struct TopCount: Sendable, Equatable {
        public var token: String
        public var count: Int64

        public init(token: String, count: Int64) {
            self.token = token
            self.count = count
        }
    }

    /// Targets of one kind in one environment waiting after failures in a row (back-off).
    public struct BackingOff: Sendable, Equatable {
        public var environment: APNsEnvironment
        public var kind: PushKind
        public var count: Int64

        public init(environment: APNsEnvironment, kind: PushKind = .wake, count: Int64) {
            self.environment = environment
            self.kind = kind
            self.count = count
        }
    }

    /// What one app's pushes of one kind came to over some runs: sent (answered 200), failed and
    /// kept, removed. The default app's wake pushes' are `RunTotals`' own fields; its other
    /// kinds' are in `others`, every further app's in `apps`.
    public struct PushTotals: Sendable, Equatable {
        public var kind: PushKind
        public var sent: Int64
        public var failed: Int64
        public var removed: Int64
        /// The app (`default` for the default app: SPEC 6 "Several apps"), as stored: a name read
        /// back is shown escaped, never refused.
        public var app: AppName

        public init(kind: PushKind, sent: Int64 = 0, failed: Int64 = 0, removed: Int64 = 0, app: AppName = .defaultApp) {
            self.kind = kind
            self.sent = sent
            self.failed = failed
            self.removed = removed
            self.app = app
        }

        /// failed / (sent + failed); 0 when nothing was attempted.
        public var errorRate: Double { RunTotals.rate(failed: failed, sent: sent) }
    }

    public struct RunTotals: Sendable, Equatable {
        public var runs: Int64 = 0
        public var sent: Int64 = 0
        public var failed: Int64 = 0
        public var removed: Int64 = 0
        public var expired: Int64 = 0

        /// The default app's other kinds' pushes over the same runs (`widgets`), in the order kinds
        /// are listed; a kind none of the runs pushed is left out.
        public var others: [PushTotals] = []
        /// Every further app's pushes over the same runs, each kind apart (SPEC 7), by app name
        /// then in the kinds' order; an app none of the runs counted is left out.
        public var apps: [PushTotals] = []

        public init(
            runs: Int64 = 0, sent: Int64 = 0, failed: Int64 = 0, removed: Int64 = 0, expired: Int64 = 0,
            others: [PushTotals] = [],
            apps: [PushTotals] = []
        ) {
            self.runs = runs
            self.sent = sent
            self.failed = failed
            self.removed = removed
            self.expired = expired
            self.others = others
            self.apps = apps
        }

        /// The further apps `apps` holds, by name.
        public var appNames: [AppName] { Self.names(apps.map(\.app)) }

        /// Apps once each, in their first order.
        static func names(_ list: [AppName]) -> [AppName] {
            var seen = Set<AppName>()
            return list.filter { seen.insert($0).inserted }
        }

        /// failed / (sent + failed) of the default app's wake pushes; 0 when nothing was attempted.
        public var errorRate: Double { Self.rate(failed: failed, sent: sent) }

        static func rate(failed: Int64, sent: Int64) -> Double {
            let attempted = Double(sent) + Double(failed)
            return attempted <= 0 ? 0 : min(1, max(0, Double(failed) / attempted))
        }
    }

    public var generatedAt: Int64 = 0
    /// Registrations (their wake targets).
    public var active: Int64 = 0
    /// Registrations by type and environment.
    public var byTypeAndEnvironment: [Group] = []
    /// Targets of every other kind (`widgets`), by kind, type and environment.
    public var otherTargets: [Group] = []
    /// Counts by registration age: <5m, 5-30m, 30m-2h, 2-8h, and older (only with a longer expiry).
    public var byAge: [(label: String, count: Int64)] = []
    /// Wakeups delivered to the registrations still active.
    public var activeWakeups: Int64 = 0
    /// The most-pushed active registrations (token prefix, count).
    public var topWakeups: [TopCount] = []
    public var oldestRegisteredAt: Int64?
    public var lastDay = RunTotals()
    public var lastWeek = RunTotals()
    /// Pushes delivered over the whole recorded run history (the default app's wakes).
    public var lifetimeSent: Int64 = 0
    /// The default app's other kinds' pushes over the whole recorded run history.
    public var lifetimeOthers: [PushTotals] = []
    /// Every further app's pushes over the whole recorded run history, each kind apart.
    public var lifetimeApps: [PushTotals] = []
    /// Targets waiting after failures in a row (back-off, SPEC 5), by environment and kind.
    public var backingOff: [BackingOff] = []
    /// Faults of the last 24 hours, by environment, kind and reason.
    public var recentFaults: [FaultTotals] = []
    public var lastRunAt: Int64?
    public var lastRunDurationMilliseconds: Int64?
    public var lastRunOutcome: RunOutcome?
    /// Wakes the cadence withheld over 24 h, 7 d and every run ever.
    public var withheld = Withheld()
    /// Delivery over 24 h / 7 d: pushes answered 200, acknowledged wakes, acks by outcome.
    public var delivery = DeliveryReport()
    /// The last 24 hours in detail and how the last run ended, for the status page (StatsReport+Day.swift).
    public var day = Day()

    /// How often one fault stopped sending to an environment (or one kind of push there) over some runs.
    public struct FaultTotals: Sendable, Equatable {
        public var environment: APNsEnvironment
        /// The one push kind it stopped, nil for every kind of the environment.
        public var pushKind: PushKind?
        public var kind: SweepFault.Kind
        public var reason: String
        /// Runs it stopped.
        public var runs: Int64
        /// Pushes it touched over those runs.
        public var pushes: Int64
        /// Start of the last run it stopped, Unix ms.
        public var lastAt: Int64
        /// The app whose pushes it stopped (`default` for the default app), as stored.
        public var app: AppName

        public init(
            environment: APNsEnvironment, pushKind: PushKind? = nil, kind: SweepFault.Kind, reason: String, runs: Int64,
            pushes: Int64, lastAt: Int64, app: AppName = .defaultApp
        ) {
            self.app = app
            self.environment = environment
            self.pushKind = pushKind
            self.kind = kind
            self.reason = reason
            self.runs = runs
            self.pushes = pushes
            self.lastAt = lastAt
        }

        /// What it stopped: `sandbox`, or `sandbox widgets` for one kind, after the app's name.
        public var scope: FaultScope { FaultScope(environment: environment, kind: pushKind, app: app) }
    }

    public init() {}

    /// Whether any app besides the default one has figures here: targets now, or pushes in the
    /// run history (an app no longer served keeps its figures until they age out). Where one has,
    /// a figure that is the default app's alone, or every app's, says so.
    public var hasFurtherApps: Bool {
        (byTypeAndEnvironment + otherTargets).contains { !$0.app.isDefault }
            || !day.apps.isEmpty || !lastDay.apps.isEmpty || !lastWeek.apps.isEmpty || !lifetimeApps.isEmpty
    }

    /// `other-app ` before what belongs to an app other than the default one; nothing for the
    /// default app's, so a deployment of one app reads as it always did (SPEC 6).
    public static func appPrefix(_ app: String) -> String { AppName(trusted: app).prefix(" ") }

    /// `,"app":"other-app"` in a JSON object of an app other than the default one; nothing for
    /// the default app's.
    public static func appMember(_ app: String) -> String {
        AppName.isDefault(named: app) ? "" : ",\"app\":" + JSONText.outside(app)
    }

    public static let ageLabels = ["<5m", "5-30m", "30m-2h", "2-8h", ">8h"]
}
