import LiveActivityDomain
import LiveActivityFigures

/// The reads behind the figures (`stats`, `/wakeup/metrics`, the status page) and one device's
/// story (`history`), each one query an engine answers from its counters, indexes and the run
/// history, never a scan of the targets. How they add up to a report is decided above, once
/// (`StatsReport.gather` and its siblings), and so is the order they are shown in: each list is
/// answered in no order and sorted there by the domain's order (`FigureOrder`), so no engine
/// writes a presentation `ORDER BY` (only one a `LIMIT` or `DISTINCT ON` needs). Every figure that counts pushes counts them per kind
/// and per app (SPEC 7): each row it reads names both.
public protocol FigureQueries: AnyObject {
    // MARK: Registrations and their targets

    /// The stored registrations (their wake targets), from the counters.
    func registrationCount() throws -> Int
    /// One stored registration with its targets; their attempts too when `attempts` is true.
    func registration(_ key: RegistrationKey, attempts: Bool) throws -> Registration?
    /// The groups holding targets, by kind, type and environment, from the counters.
    func groups() throws -> [StatsReport.Group]
    /// The wake-ups of every stored registration.
    func wakeupTotal() throws -> Int64
    /// For each bound (Unix ms), how many registrations were made after it.
    func registeredAfter(_ bounds: [Int64]) throws -> [Int64]
    func oldestRegisteredAt() throws -> Int64?
    /// The `limit` most woken registrations: their tokens' first 8 characters and their counts.
    func topWakeups(limit: Int) throws -> [StatsReport.TopCount]
    /// Targets waiting after failures, per environment and kind that has any.
    func backingOff() throws -> [StatsReport.BackingOff]

    // MARK: Runs

    /// Sums over the runs started at or after `since`, per app and kind (assembled by
    /// `RunTotals.assembled`); nil: every run ever (totals that never go down).
    func runTotals(since: Int64?) throws -> StatsReport.RunTotals
    /// The last run recorded (by the order runs were recorded, not by their clocks).
    func lastRun() throws -> RecordedRun?
    /// Each host's last run recorded among the runs started at or after `since` (nil: every run
    /// kept), by host name; `failed`: a fault of `failingKinds` ended it.
    func lastRunPerHost(since: Int64?, failingKinds: [String]) throws -> [HostRun]
    /// When the last run recorded finished, and whether a fault of `failingKinds` ended it.
    func lastRunEnd(failingKinds: [String]) throws -> RunEnd?
    /// The faults of the runs started at or after `since` by scope, kind and reason; nil: every
    /// fault ever (lifetime totals).
    func faults(since: Int64?) throws -> [StatsReport.FaultTotals]
    /// Why pushes failed, over every run ever: each kind and reason with its count.
    func lifetimeFailureReasons() throws -> [StatsReport.ReasonCount]
    /// The reasons of the runs started at or after `since`, per kind.
    func reasons(since: Int64) throws -> [RunReason]
    /// The runs started at or after `since`, per `width` ms, app and kind: start, runs, most
    /// active, sent, failed.
    func runBuckets(since: Int64, width: Int64) throws -> [StatsReport.SweepBucket]

    /// The wakes the cadence withheld in the runs started at or after `since`, per app, type,
    /// environment and reason, in no order (the report orders them); nil: every run ever
    /// (totals that never go down).
    func withheld(since: Int64?) throws -> [WithheldWakes]

    // MARK: Delivery

    /// Sums of the hourly delivery figures from `sinceHour`, per app, kind and activity type.
    func deliveryWindows(sinceHour: Int64) throws -> [DeliveryReport.Window]
    /// The wakes' hourly delivery figures from `sinceHour`, per hour and app: pushes answered
    /// 200, acks matched (by the hour of the push they matched) and their delay buckets.
    func deliveryHours(sinceHour: Int64) throws -> [DeliveryHourFigures]
    /// Acks by app and outcome from `sinceHour`; nil: lifetime totals.
    func acks(sinceHour: Int64?) throws -> [AckOutcomeCount]
    /// The lifetime ack delay histogram and the matched delays' sum (ms), per app that has any.
    func ackDelayTotals() throws -> [AckDelayTotals]

    // MARK: One device

    /// The registrations whose token, or a widget extension token of theirs, starts with
    /// `prefix`, in order (by token, then app), at most `limit`.
    func tokens(withPrefix prefix: String, limit: Int) throws -> [RegistrationKey]
    /// How many registrations `tokens(withPrefix:limit:)` would find without a limit.
    func tokenCount(withPrefix prefix: String) throws -> Int
}

/// When the last recorded run finished, and whether a fault that fails a run ended it.
public struct RunEnd: Sendable, Equatable {
    public var finishedAt: Int64
    public var failed: Bool

    public init(finishedAt: Int64, failed: Bool) {
        self.finishedAt = finishedAt
        self.failed = failed
    }
}

/// A reason recorded by runs: a failure (the target kept) or a removal, of one push kind.
public struct RunReason: Sendable, Equatable {
    public enum Category: String, Sendable {
        case failed
        case removed
    }

    public var category: Category
    public var kind: PushKind
    public var reason: String
    public var count: Int64

    public init(category: Category, kind: PushKind, reason: String, count: Int64) {
        self.category = category
        self.kind = kind
        self.reason = reason
        self.count = count
    }
}

/// One hour of one app's wakes' delivery figures.
public struct DeliveryHourFigures: Sendable, Equatable {
    public var hour: Int64
    public var delivered: Int64
    public var acked: Int64
    /// Acks by delay (`AckDelayBuckets`).
    public var delays: [Int64]
    /// The app (`default` for the default app), as stored.
    public var app: AppName

    public init(hour: Int64, delivered: Int64, acked: Int64, delays: [Int64], app: AppName = .defaultApp) {
        self.hour = hour
        self.delivered = delivered
        self.acked = acked
        self.delays = delays
        self.app = app
    }
}

/// Acks of one app and outcome.
public struct AckOutcomeCount: Sendable, Equatable {
    public var outcome: AckOutcome
    public var count: Int64
    /// The app (`default` for the default app), as stored.
    public var app: AppName

    public init(outcome: AckOutcome, count: Int64, app: AppName = .defaultApp) {
        self.outcome = outcome
        self.count = count
        self.app = app
    }
}

/// One app's lifetime ack delay histogram (`AckDelayBuckets`, not cumulative) and the matched
/// delays' sum.
public struct AckDelayTotals: Sendable, Equatable {
    public var buckets: [Int64]
    public var sumMilliseconds: Int64
    /// The app (`default` for the default app), as stored.
    public var app: AppName

    public init(buckets: [Int64], sumMilliseconds: Int64, app: AppName = .defaultApp) {
        self.buckets = buckets
        self.sumMilliseconds = sumMilliseconds
        self.app = app
    }

    /// Each app's totals from what an engine stored: its count per delay bucket (a bucket this
    /// build does not know is left out) and its matched acks' delays summed, in the apps' order.
    /// Every engine assembles its rows through this.
    public static func assembled(
        buckets: [(bucket: Int64, count: Int64, app: AppName)], sums: [(app: AppName, sumMilliseconds: Int64)]
    ) -> [AckDelayTotals] {
        var totals: [AppName: AckDelayTotals] = [:]
        func empty(_ app: AppName) -> AckDelayTotals {
            AckDelayTotals(buckets: [Int64](repeating: 0, count: AckDelayBuckets.count), sumMilliseconds: 0, app: app)
        }
        for (bucket, count, app) in buckets where (0..<Int64(AckDelayBuckets.count)).contains(bucket) {
            totals[app, default: empty(app)].buckets[Int(bucket)] = totals[app, default: empty(app)].buckets[Int(bucket)]
                .addingSaturated(count)
        }
        for (app, sum) in sums {
            totals[app, default: empty(app)].sumMilliseconds = totals[app, default: empty(app)].sumMilliseconds.addingSaturated(
                sum)
        }
        return totals.values.sorted { $0.app.rawValue < $1.app.rawValue }
    }
}
