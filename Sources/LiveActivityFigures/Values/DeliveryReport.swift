import LiveActivityDomain

/// Did the phones wake? (SPEC 7, issue 16) Over a window of hours, per activity type: the pushes
/// APNs answered 200, the wakes the app acknowledged, their share and delay, and how often a
/// registration was woken per hour it was pushed, beside Apple's advice of two or three. Read
/// from the hourly figures (`delivery_hours`, `ack_hours`) by `DeliveryReport.gather` in Storage/.
/// The default app's figures are the report's own; each further app's are a report of their own
/// in `apps` (SPEC 7: per app where there are several).
public struct DeliveryReport: Sendable, Equatable {
    /// Apple's advice for background pushes per device and hour (SPEC 1): "two or three".
    public static let advisedPerHour = 2.0...3.0

    public struct Window: Sendable, Equatable {
        /// The type of a wakes' window, as stored; nil for another kind's, its types summed.
        public var activityType: StoredActivityType?
        /// `wake` for the per-type windows, another kind for `otherKinds*`.
        public var kind: PushKind = .wake
        /// The app (`default` for the default app), as stored.
        public var app: AppName = .defaultApp
        /// Pushes APNs answered 200.
        public var delivered: Int64 = 0
        /// Of those, the ones the app acknowledged.
        public var acked: Int64 = 0
        /// Hours in which a registration was delivered at least once, summed over registrations.
        public var registrationHours: Int64 = 0
        public var delaySumMilliseconds: Int64 = 0
        /// Acks by delay (`AckDelayBuckets`).
        public var delayBuckets = [Int64](repeating: 0, count: AckDelayBuckets.count)

        public init(activityType: StoredActivityType?, kind: PushKind = .wake, app: AppName = .defaultApp) {
            self.activityType = activityType
            self.kind = kind
            self.app = app
        }

        /// acked / delivered; nil when nothing was delivered.
        public var ackedShare: Double? { delivered == 0 ? nil : Double(acked) / Double(delivered) }
        /// Median and 90th percentile of the ack delay, seconds; nil without acks.
        public var delayMedian: Double? { AckDelayBuckets.quantile(0.5, of: delayBuckets) }
        public var delayP90: Double? { AckDelayBuckets.quantile(0.9, of: delayBuckets) }
        /// Pushes answered 200 and acknowledged wakes per registration-hour.
        public var pushesPerRegistrationHour: Double? {
            registrationHours == 0 ? nil : Double(delivered) / Double(registrationHours)
        }
        public var wakesPerRegistrationHour: Double? {
            registrationHours == 0 ? nil : Double(acked) / Double(registrationHours)
        }
    }

    /// The last 24 hours and 7 days (the current hour included), one window per type: wakes.
    public var lastDay: [Window] = []
    public var lastWeek: [Window] = []
    /// The same windows of every other kind that was answered 200 in them (all types together,
    /// `activityType` empty): widgets pushes are not acknowledged, so theirs hold 200s and
    /// target-hours only.
    public var otherKindsLastDay: [Window] = []
    public var otherKindsLastWeek: [Window] = []
    /// Acks by outcome over the same windows and over the database's life.
    public var acksLastDay: [AckOutcome: Int64] = [:]
    public var acksLastWeek: [AckOutcome: Int64] = [:]
    public var acksLifetime: [AckOutcome: Int64] = [:]
    /// Each further app's figures, by name: the same windows and acks, its own (SPEC 7); a
    /// further app without any is left out.
    public var apps: [AppName: DeliveryReport] = [:]

    public init() {}
}
