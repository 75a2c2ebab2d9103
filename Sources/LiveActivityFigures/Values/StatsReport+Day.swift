import LiveActivityDomain

/// The last 24 hours in detail, as the status page draws them (SPEC 3) and `stats --json` lists
/// them (`day`): gathered once by `StatsReport.gather`, so both show the same figures.
extension StatsReport {
    public struct Day: Sendable, Equatable {
        /// The width of a bucket of sweep runs: 10 minutes.
        public static let bucketMilliseconds: Int64 = 600_000
        /// 24 hours of buckets.
        public static let bucketCount: Int64 = 144
        public static let hourMilliseconds: Int64 = 3_600_000

        /// Start of the first bucket (Unix ms, on a 10-minute boundary); the last one holds the
        /// report's time.
        public var start: Int64 = 0
        /// The buckets in which a sweep started, oldest first (an empty one means no sweep ran):
        /// the default app's wake pushes'.
        public var buckets: [SweepBucket] = []
        /// The same buckets' pushes of the default app's every other kind (`widgets`), where such
        /// pushes were sent or failed in the 24 hours, by kind.
        public var otherBuckets: [String: [SweepBucket]] = [:]
        /// The 24 hours up to the report's, oldest first, those with delivery figures only (a push
        /// APNs answered 200 in that hour): the default app's wakes.
        public var hours: [WakeHour] = []
        /// Each further app's 24 hours (SPEC 7: apart), by app name then kind: its pushes per
        /// 10 minutes where it had targets or pushes, and of its wakes the hours answered 200.
        public var apps: [AppName: [PushKind: KindDay]] = [:]
        /// Why pushes failed in the runs of the 24 hours, most frequent first, each with its kind.
        public var failureReasons: [ReasonCount] = []
        /// Why targets were removed (410, BadDeviceToken) in those runs, most frequent first.
        public var removalReasons: [ReasonCount] = []
        /// When the last recorded run finished (start + duration), Unix ms.
        public var lastRunFinishedAt: Int64?
        /// Whether the last recorded run exited non-zero: it recorded a fault that fails the run
        /// (`SweepFault.failsTheRun`: every kind but an unreachable host), as the sweep decides
        /// its exit code. Runs that stop before recording anything (a bad setting, an unusable
        /// database) leave no run: the page's alarm then says no sweep finished lately.
        public var lastRunExitedNonZero = false
        /// Each host's last run, of the hosts that swept in the last 24 hours (`HostRun`), by name.
        public var hosts: [HostRun] = []

        public init() {}

        /// The first of the 24 hours for a report made at `now`: on the hour, the current one last.
        public static func firstHour(now: Int64) -> Int64 {
            now - ((now % hourMilliseconds) + hourMilliseconds) % hourMilliseconds - 23 * hourMilliseconds
        }

        /// The first bucket's start for a report made at `now`.
        public static func start(now: Int64) -> Int64 {
            let current = now - ((now % bucketMilliseconds) + bucketMilliseconds) % bucketMilliseconds
            return current - (bucketCount - 1) * bucketMilliseconds
        }
    }

    /// One further app's pushes of one kind over the last 24 hours (`Day.apps`).
    public struct KindDay: Sendable, Equatable {
        /// The buckets in which its pushes were sent or failed, or its targets present, oldest first.
        public var buckets: [SweepBucket] = []
        /// Its hours with a push answered 200, oldest first (wakes only: the app acknowledges those).
        public var hours: [WakeHour] = []

        public init(buckets: [SweepBucket] = [], hours: [WakeHour] = []) {
            self.buckets = buckets
            self.hours = hours
        }
    }

    /// The sweep runs that started in one 10-minute bucket, and what one app's kind of push came
    /// to in them.
    public struct SweepBucket: Sendable, Equatable {
        /// Unix ms, on a 10-minute boundary.
        public var start: Int64
        public var runs: Int64
        /// Targets of the kind present after expiry (registrations, for wakes): the most any run
        /// of the bucket saw.
        public var active: Int64
        /// Pushes answered 200.
        public var sent: Int64
        public var failed: Int64
        public var kind: PushKind
        /// The app (`default` for the default app), as stored.
        public var app: AppName

        public init(
            start: Int64, runs: Int64, active: Int64, sent: Int64, failed: Int64, kind: PushKind = .wake,
            app: AppName = .defaultApp
        ) {
            self.start = start
            self.runs = runs
            self.active = active
            self.sent = sent
            self.failed = failed
            self.kind = kind
            self.app = app
        }
    }

    /// One hour of wakes: the pushes APNs answered 200 in it, and of those the ones the app
    /// acknowledged (`POST /wakeup/ack`) with their delay: both by the hour of the 200, so the
    /// share divides like by like. `acknowledged` is nil while this database keeps no acks (the
    /// page then says "no acks yet").
    public struct WakeHour: Sendable, Equatable {
        /// Unix ms, on an hour boundary.
        public var start: Int64
        public var answered: Int64
        public var acknowledged: Int64?
        public var delayMedianMilliseconds: Int64?
        public var delayP90Milliseconds: Int64?

        public init(
            start: Int64, answered: Int64, acknowledged: Int64? = nil, delayMedianMilliseconds: Int64? = nil,
            delayP90Milliseconds: Int64? = nil
        ) {
            self.start = start
            self.answered = answered
            self.acknowledged = acknowledged
            self.delayMedianMilliseconds = delayMedianMilliseconds
            self.delayP90Milliseconds = delayP90Milliseconds
        }

        /// acknowledged / answered; nil without acks or without 200s.
        public var share: Double? {
            guard let acknowledged, answered > 0 else { return nil }
            return Double(acknowledged) / Double(answered)
        }
    }

    /// A failure or removal reason (the bounded vocabulary of SPEC 5) of one push kind, with its count.
    public struct ReasonCount: Sendable, Equatable {
        public var reason: String
        public var count: Int64
        public var kind: PushKind

        public init(reason: String, count: Int64, kind: PushKind = .wake) {
            self.reason = reason
            self.count = count
            self.kind = kind
        }
    }
}
