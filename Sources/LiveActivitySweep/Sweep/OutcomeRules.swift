import APNsHTTP2
import LiveActivityDomain

/// SPEC section 5 step 6's outcome table as a pure function: a due registration, the answer to
/// its push, whether that push was already a retry, and the time -> what the sweep does, writes
/// and counts. No I/O: a new rule is a new row here, not a branch in the sweep's loop.
public struct OutcomeRules: Sendable {
    /// The push interval of each activity type, in milliseconds.
    public var intervals: [ActivityType: Int64]
    /// The longest interval an app may ask for (`LIVEACTIVITY_INTERVAL_MAX`), in milliseconds.
    public var maximumInterval: Int64

    public init(
        intervals: [ActivityType: Int64], maximumInterval: Int64 = Int64(IntervalPolicy.defaultMaximumSeconds) * 1000
    ) {
        self.intervals = intervals
        self.maximumInterval = maximumInterval
    }

    /// The intervals the configuration sets (`LIVEACTIVITY_INTERVAL_*`).
    public init(configuration: Configuration) {
        var intervals: [ActivityType: Int64] = [:]
        for type in ActivityType.allCases { intervals[type] = configuration.intervalMilliseconds(type) }
        self.init(intervals: intervals, maximumInterval: Int64(configuration.intervalMaximum) * 1000)
    }

    /// The push interval of `type`, in milliseconds.
    public func interval(_ type: ActivityType) -> Int64 { intervals[type] ?? 300_000 }

    /// The effective interval of `row`, in milliseconds: the app's, clamped to [its type's, the
    /// maximum], else its type's (`IntervalPolicy.effectiveSeconds`, in milliseconds).
    public func interval(_ row: DueRegistration) -> Int64 {
        let floor = interval(row.activityType)
        guard let requested = row.requestedInterval else { return floor }
        return max(floor, min(Int64(requested) * 1000, maximumInterval))
    }

    /// What `answer` to the push for `row` means at `now` (Unix milliseconds).
    public func decide(_ answer: APNsAnswer, for row: DueRegistration, isRetry: Bool, now: Int64) -> OutcomeDecision {
        let reason = answer.reason
        let environment = row.environment
        switch answer {
        case .notHTTP2:
            return OutcomeDecision(.stopEnvironment(.raised(.configuration, reason: reason, in: environment)))
        case .unreachable:
            return OutcomeDecision(.stopEnvironment(.raised(.unreachable, reason: reason, in: environment)))
        case .failed:
            return backOff(row, reason, now: now)
        case .answered(let response):
            return decide(status: response.status, reason: reason, timestamp: response.timestamp, row, isRetry, now)
        }
    }

    private func decide(
        status: Int, reason: String, timestamp: Int64?, _ row: DueRegistration, _ isRetry: Bool, _ now: Int64
    ) -> OutcomeDecision {
        let nextInterval = now + interval(row)
        switch (status, reason) {
        case (200, _):
            let write = OutcomeWrite.delivered(
                row.token, selectedRegisteredAt: row.registeredAt, at: now, nextPushAt: nextInterval)
            return OutcomeDecision(.write(write), tally: .delivered)
        case (410, _):
            // Deleted unless registered again after APNs learned the token was gone.
            let write = OutcomeWrite.unregistered(
                row.token, registeredAtOrBefore: timestamp ?? row.registeredAt, selectedRegisteredAt: row.registeredAt,
                reason: reason, nextPushAt: nextInterval)
            return OutcomeDecision(.write(write), tally: .removed(reason))
        case (_, "BadDeviceToken"), (_, "DeviceTokenNotForTopic"):
            // Also what a wrong host, key or bundle id looks like: the guard has the last word.
            let write = OutcomeWrite.delete(row.token, registeredAtOrBefore: row.registeredAt)
            return OutcomeDecision(.deleteUnlessGuarded(write, reason: reason))
        case (_, "ExpiredProviderToken"):
            // Renew the token and resend, once: a token signed a moment ago and still expired
            // means our clock is wrong. (The run sends a retry as it sends a due row: held if a
            // fault stopped its environment meanwhile, left for the next run past the budget.)
            guard isRetry else { return OutcomeDecision(.retryWithNewToken) }
            return OutcomeDecision(.stopEnvironment(.raised(.provider, reason: reason, in: row.environment)))
        case (_, let reason) where SweepFault.configurationReasons.contains(reason):
            return OutcomeDecision(.stopEnvironment(.raised(.configuration, reason: reason, in: row.environment)))
        case (405, _):
            return OutcomeDecision(.stopEnvironment(.raised(.provider, reason: reason, in: row.environment)))
        case (_, let reason) where SweepFault.providerReasons.contains(reason):
            return OutcomeDecision(.stopEnvironment(.raised(.provider, reason: reason, in: row.environment)))
        case (429, _), (500...599, _):
            return backOff(row, reason, now: now)
        default:
            // Any other answer: kept, tried again one interval later, the reason recorded.
            let write = OutcomeWrite.failed(
                row.token, selectedRegisteredAt: row.registeredAt, reason: reason, nextPushAt: nextInterval)
            return OutcomeDecision(.write(write), tally: .failed(reason))
        }
    }

    /// What a fault of `row`'s environment does to `row`, which got no 200 this sweep (its push was
    /// not sent, or answered with the fault): an unreachable host backs off like any connection
    /// failure; any other fault holds the row one interval, never every minute.
    public func touched(_ row: DueRegistration, by fault: SweepFault, now: Int64) -> (write: OutcomeWrite, tally: SweepTally) {
        guard fault.kind != .unreachable else {
            let decision = backOff(row, fault.reason, now: now)
            guard case .write(let write) = decision.action else { preconditionFailure("a back-off is a write") }
            return (write, decision.tally)
        }
        let write = OutcomeWrite.held(
            row.token, selectedRegisteredAt: row.registeredAt, reason: fault.reason,
            nextPushAt: now + interval(row))
        return (write, .held)
    }

    /// Kept, failures + 1, tried again after the back-off: server trouble, timeouts, no connection.
    private func backOff(_ row: DueRegistration, _ reason: String, now: Int64) -> OutcomeDecision {
        let delay = BackOff.delay(afterFailures: row.failures + 1, interval: interval(row))
        let write = OutcomeWrite.failed(
            row.token, selectedRegisteredAt: row.registeredAt, reason: reason, nextPushAt: now + delay)
        return OutcomeDecision(.write(write), tally: .failed(reason))
    }
}
