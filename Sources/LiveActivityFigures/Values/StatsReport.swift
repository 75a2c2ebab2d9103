/// The operator's snapshot of SPEC section 7 (read by `StatsReport.gather` in Storage/, without
/// reading the registrations themselves).
public struct StatsReport: Sendable {
    public struct Group: Sendable, Equatable {
        public var activityType: String
        public var environment: String
        public var count: Int64

        public init(activityType: String, environment: String, count: Int64) {
            self.activityType = activityType
            self.environment = environment
            self.count = count
        }
    }

    public struct RunTotals: Sendable, Equatable {
        public var runs: Int64 = 0
        public var sent: Int64 = 0
        public var failed: Int64 = 0
        public var removed: Int64 = 0
        public var expired: Int64 = 0

        public init(runs: Int64 = 0, sent: Int64 = 0, failed: Int64 = 0, removed: Int64 = 0, expired: Int64 = 0) {
            self.runs = runs
            self.sent = sent
            self.failed = failed
            self.removed = removed
            self.expired = expired
        }

        /// failed / (sent + failed); 0 when nothing was attempted.
        public var errorRate: Double {
            let attempted = Double(sent) + Double(failed)
            return attempted <= 0 ? 0 : min(1, max(0, Double(failed) / attempted))
        }
    }

    public var generatedAt: Int64 = 0
    public var active: Int64 = 0
    public var byTypeAndEnvironment: [Group] = []
    /// Counts by registration age: <5m, 5-30m, 30m-2h, 2-8h, and older (only with a longer expiry).
    public var byAge: [(label: String, count: Int64)] = []
    /// Wakeups delivered to the registrations still active.
    public var activeWakeups: Int64 = 0
    /// The most-pushed active registrations (token prefix, count).
    public var topWakeups: [(token: String, count: Int64)] = []
    public var oldestRegisteredAt: Int64?
    public var lastDay = RunTotals()
    public var lastWeek = RunTotals()
    /// Pushes delivered over the whole recorded run history.
    public var lifetimeSent: Int64 = 0
    /// Registrations waiting after failures in a row (back-off, SPEC 5), by environment.
    public var backingOff: [(environment: String, count: Int64)] = []
    /// Faults of the last 24 hours, by environment, kind and reason.
    public var recentFaults: [FaultTotals] = []
    public var lastRunAt: Int64?
    public var lastRunDurationMilliseconds: Int64?
    public var lastRunOutcome: String?
    /// Delivery over 24 h / 7 d: pushes answered 200, acknowledged wakes, acks by outcome.
    public var delivery = DeliveryReport()
    /// The last 24 hours in detail and how the last run ended, for the status page (StatsReport+Day.swift).
    public var day = Day()

    /// How often one fault stopped sending to an environment over some runs.
    public struct FaultTotals: Sendable, Equatable {
        public var environment: String
        public var kind: String
        public var reason: String
        /// Runs it stopped.
        public var runs: Int64
        /// Pushes it touched over those runs.
        public var pushes: Int64
        /// Start of the last run it stopped, Unix ms.
        public var lastAt: Int64

        public init(environment: String, kind: String, reason: String, runs: Int64, pushes: Int64, lastAt: Int64) {
            self.environment = environment
            self.kind = kind
            self.reason = reason
            self.runs = runs
            self.pushes = pushes
            self.lastAt = lastAt
        }
    }

    public init() {}

    public static let ageLabels = ["<5m", "5-30m", "30m-2h", "2-8h", ">8h"]
}
