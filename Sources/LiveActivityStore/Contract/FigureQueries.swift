import LiveActivityDomain
import LiveActivityFigures

/// The reads behind the figures (`stats`, `/wakeup/metrics`, the status page) and one device's
/// story (`history`), each one query an engine answers from its counters, indexes and the run
/// history, never a scan of the registrations. How they add up to a report is decided above,
/// once (`StatsReport.gather` and its siblings).
public protocol FigureQueries: AnyObject {
    // MARK: Registrations

    /// The stored registrations, from the counters.
    func registrationCount() throws -> Int
    /// One stored registration.
    func registration(_ token: PushToken) throws -> Registration?
    /// The groups holding registrations, by type and environment, from the counters.
    func groups() throws -> [StatsReport.Group]
    /// The wake-ups of every stored registration.
    func wakeupTotal() throws -> Int64
    /// For each bound (Unix ms), how many registrations were made after it.
    func registeredAfter(_ bounds: [Int64]) throws -> [Int64]
    func oldestRegisteredAt() throws -> Int64?
    /// The `limit` most woken registrations: their tokens' first 8 characters and their counts.
    func topWakeups(limit: Int) throws -> [(prefix: String, count: Int64)]
    /// Registrations waiting after failures, per environment that has any.
    func backingOff() throws -> [(environment: String, count: Int64)]

    // MARK: Runs

    /// Sums over the runs started at or after `since`; nil: every run ever (totals that never go down).
    func runTotals(since: Int64?) throws -> StatsReport.RunTotals
    /// The last run recorded (by the order runs were recorded, not by their clocks).
    func lastRun() throws -> RecordedRun?
    /// Each host's last run recorded among the runs started at or after `since` (nil: every run
    /// kept), by host name; `failed`: a fault of `failingKinds` ended it.
    func lastRunPerHost(since: Int64?, failingKinds: [String]) throws -> [HostRun]
    /// When the last run recorded finished, and whether a fault of `failingKinds` ended it.
    func lastRunEnd(failingKinds: [String]) throws -> (finishedAt: Int64, failed: Bool)?
    /// The faults of the runs started at or after `since` by environment, kind and reason; nil:
    /// every fault ever (lifetime totals).
    func faults(since: Int64?) throws -> [StatsReport.FaultTotals]
    /// Why pushes failed, over every run ever: each reason with its count, by reason.
    func lifetimeFailureReasons() throws -> [(reason: String, count: Int64)]
    /// The reasons of the runs started at or after `since`: kind (`failed`, `removed`), reason, count.
    func reasons(since: Int64) throws -> [(kind: String, reason: String, count: Int64)]
    /// The runs started at or after `since`, per `width` ms: start, runs, most active, sent, failed.
    func runBuckets(since: Int64, width: Int64) throws -> [StatsReport.SweepBucket]

    // MARK: Delivery

    /// Sums of the hourly delivery figures from `sinceHour`, per activity type.
    func deliveryWindows(sinceHour: Int64) throws -> [DeliveryReport.Window]
    /// The hourly delivery figures from `sinceHour`, per hour: pushes answered 200, acks matched
    /// (by the hour of the push they matched) and their delay buckets.
    func deliveryHours(sinceHour: Int64) throws -> [(hour: Int64, delivered: Int64, acked: Int64, delays: [Int64])]
    /// Acks by outcome name from `sinceHour`; nil: lifetime totals.
    func acks(sinceHour: Int64?) throws -> [(outcome: String, count: Int64)]
    /// The lifetime ack delay histogram (bucket, count) and the matched delays' sum (ms).
    func ackDelayTotals() throws -> (buckets: [(bucket: Int64, count: Int64)], sumMilliseconds: Int64)

    // MARK: One device

    /// The stored tokens that start with `prefix`, in order, at most `limit`.
    func tokens(withPrefix prefix: String, limit: Int) throws -> [String]
    /// How many stored tokens start with `prefix`.
    func tokenCount(withPrefix prefix: String) throws -> Int
    /// The registration and its attempts (newest first).
    func registrationAndAttempts(_ token: PushToken) throws -> (Registration, [PushAttempt])?
}
