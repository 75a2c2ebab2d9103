import APNsHTTP2
import LiveActivityCore

/// SPEC section 5 step 6's outcome table as a pure function: a due registration, the answer to
/// its push, whether that push was already a retry, and the time -> what the sweep does, writes
/// and counts. No I/O: a new rule is a new row here, not a branch in the sweep's loop.
public struct OutcomeRules: Sendable {
    /// The push interval of each activity type, in milliseconds.
    public var intervals: [ActivityType: Int64]

    public init(intervals: [ActivityType: Int64]) { self.intervals = intervals }

    /// The intervals the configuration sets (`LIVEACTIVITY_INTERVAL_*`).
    public init(configuration: Configuration) {
        var intervals: [ActivityType: Int64] = [:]
        for type in ActivityType.allCases { intervals[type] = configuration.intervalMilliseconds(type) }
        self.init(intervals: intervals)
    }

    /// The push interval of `type`, in milliseconds.
    public func interval(_ type: ActivityType) -> Int64 { intervals[type] ?? 300_000 }

    /// What `answer` to the push for `row` means at `now` (Unix milliseconds).
    public func decide(_ answer: APNsAnswer, for row: SweepStore.Due, isRetry: Bool, now: Int64) -> OutcomeDecision {
        let reason = answer.reason
        let nextInterval = now + interval(row.activityType)
        guard let status = answer.status else { return keepForNextSweep(row, reason) }
        switch (status, reason) {
        case (200, _):
            let write = SweepStore.Write.delivered(
                row.token, selectedRegisteredAt: row.registeredAt, at: now, nextPushAt: nextInterval)
            return OutcomeDecision(.write(write), tally: .delivered)
        case (410, _):
            // Deleted unless registered again after APNs learned the token was gone.
            let cutoff = answer.response?.timestamp ?? row.registeredAt
            let write = SweepStore.Write.unregistered(
                row.token, registeredAtOrBefore: cutoff, reason: reason, nextPushAt: nextInterval)
            return OutcomeDecision(.write(write), tally: .removed(reason))
        case (400, "BadDeviceToken"), (400, "DeviceTokenNotForTopic"):
            // Also what a wrong host, key or bundle id looks like: the guard has the last word.
            let write = SweepStore.Write.delete(row.token, registeredAtOrBefore: row.registeredAt)
            return OutcomeDecision(.deleteUnlessGuarded(write, reason: reason))
        case (403, "ExpiredProviderToken"):
            return isRetry ? keepForNextSweep(row, reason) : OutcomeDecision(.retryWithNewToken)
        case (403, "InvalidProviderToken"), (403, "MissingProviderToken"), (403, "BadEnvironmentKeyIdInToken"),
            (403, "BadEnvironmentKeyInToken"), (403, "Forbidden"),
            (400, "BadTopic"), (400, "TopicDisallowed"), (400, "MissingTopic"):
            let fault =
                "APNs answered \(status) \(reason) for the \(row.environment.rawValue) environment; check APNS_KEY_ID, APNS_TEAM_ID, APNS_BUNDLE_ID, the key and APNS_ENVIRONMENT. Sending stopped; no registration was removed."
            return OutcomeDecision(.stopSending(fault: fault), tally: .fault(reason))
        case (429, _), (500...599, _):
            return keepForNextSweep(row, reason)
        default:
            // Any other 4xx: kept, tried again one interval later, and worth a line.
            let write = SweepStore.Write.failed(row.token, reason: reason, nextPushAt: nextInterval)
            return OutcomeDecision(
                .write(write), tally: .failed(reason),
                logLine: "APNs rejected a push to \(row.token.logPrefix): \(status) \(reason)")
        }
    }

    /// Kept and due again at the next sweep, failures + 1: server trouble, timeouts, no connection.
    private func keepForNextSweep(_ row: SweepStore.Due, _ reason: String) -> OutcomeDecision {
        OutcomeDecision(.write(.failed(row.token, reason: reason, nextPushAt: nil)), tally: .failed(reason))
    }
}
