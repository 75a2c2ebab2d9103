import APNsHTTP2
import LiveActivityDomain

/// SPEC section 5 step 6's outcome table as a pure function: a due push target, the answer to
/// its push, whether that push was already a retry, and the time -> what the sweep does, writes
/// and counts. No I/O: a new rule is a new row here, not a branch in the sweep's loop.
public struct OutcomeRules: Sendable {
    /// The push intervals (`LIVEACTIVITY_INTERVAL_*`): the one rule of SPEC 3 and 5.3.
    public var policy: IntervalPolicy

    public init(policy: IntervalPolicy = IntervalPolicy()) {
        self.policy = policy
    }

    /// The intervals the configuration sets.
    public init(configuration: Configuration) {
        self.init(policy: configuration.intervalPolicy)
    }

    /// The effective interval of `row`, in milliseconds: the app's, clamped to [its kind's (a
    /// wake's: its type's), the maximum], else its kind's (`IntervalPolicy`).
    public func interval(_ row: DueTarget) -> Int64 {
        policy.effectiveMilliseconds(row.kind, row.activityType, requested: row.requestedInterval)
    }

    /// The interval `row` is pushed at now, ms: a wake target's by its cadence, else `interval`.
    public func effectiveInterval(_ row: DueTarget) -> Int64 {
        guard row.kind == .wake else { return interval(row) }
        return policy.cadence(row.activityType, requested: row.requestedInterval).effective(row.cadence)
    }

    /// Whether a wake can help now (SPEC 5, "Cadence"): a wake target is pushed, or withheld
    /// until its next tick, by what its app last reported; another kind is always pushed.
    public func cadenceDecision(_ row: DueTarget, now: Int64) -> Cadence.Decision {
        guard row.kind == .wake else { return .push }
        return policy.cadence(row.activityType, requested: row.requestedInterval).decide(
            row.cadence, lastPushAt: row.lastPushAt, registeredAt: row.registeredAt, now: now)
    }

    /// When `row`, pushed at `now`, is next due after a 200: one interval on, spread per target
    /// for a kind that spreads (`IntervalPolicy.nextPush`).
    public func nextPush(_ row: DueTarget, after now: Int64) -> Int64 {
        IntervalPolicy.nextPush(after: now, interval: interval(row), kind: row.kind, token: row.token)
    }

    /// What `answer` to the push for `row` means at `now` (Unix milliseconds).
    public func decide(_ answer: APNsAnswer, for row: DueTarget, isRetry: Bool, now: Int64) -> OutcomeDecision {
        let reason = answer.reason
        let environment = row.environment
        switch answer {
        case .notHTTP2:
            return OutcomeDecision(
                .stopEnvironment(.raised(.configuration, reason: reason, in: environment, by: row.kind, of: row.app)))
        case .unreachable:
            return OutcomeDecision(
                .stopEnvironment(.raised(.unreachable, reason: reason, in: environment, by: row.kind, of: row.app)))
        case .failed:
            return backOff(row, reason, now: now)
        case .answered(let response):
            return decide(status: response.status, reason: reason, timestamp: response.timestamp, row, isRetry, now)
        }
    }

    private func decide(
        status: Int, reason: String, timestamp: Int64?, _ row: DueTarget, _ isRetry: Bool, _ now: Int64
    ) -> OutcomeDecision {
        let nextInterval = now + interval(row)
        if status == 200 {
            let write = OutcomeWrite.delivered(
                row.key, selectedRegisteredAt: row.registeredAt, at: now, nextPushAt: nextPush(row, after: now))
            return OutcomeDecision(.write(write), tally: .delivered)
        }
        switch APNsReason.meaning(status: status, reason: reason) {
        case .gone:
            // Deleted unless registered again after APNs learned the token was gone.
            let write = OutcomeWrite.unregistered(
                row.key, registeredAtOrBefore: timestamp ?? row.registeredAt, selectedRegisteredAt: row.registeredAt,
                reason: reason, nextPushAt: nextInterval)
            return OutcomeDecision(.write(write), tally: .removed(reason))
        case .rejected:
            // Also what a wrong host, key or bundle id looks like: the guard has the last word.
            let write = OutcomeWrite.delete(row.key, registeredAtOrBefore: row.registeredAt)
            return OutcomeDecision(.deleteUnlessGuarded(write, reason: reason))
        case .renewToken:
            // Renew the token and resend, once: a token signed a moment ago and still expired
            // means our clock is wrong. (The run sends a retry as it sends a due row: held if a
            // fault stopped its environment meanwhile, left for the next run past the budget.)
            guard isRetry else { return OutcomeDecision(.retryWithNewToken) }
            return OutcomeDecision(
                .stopEnvironment(.raised(.provider, reason: reason, in: row.environment, by: row.kind, of: row.app)))
        case .fault(let kind):
            return OutcomeDecision(
                .stopEnvironment(.raised(kind, reason: reason, in: row.environment, by: row.kind, of: row.app)))
        case .backOff:
            return backOff(row, reason, now: now)
        case .retryNextInterval:
            // Any other answer: kept, tried again one interval later, the reason recorded.
            let write = OutcomeWrite.failed(
                row.key, selectedRegisteredAt: row.registeredAt, reason: reason, nextPushAt: nextInterval)
            return OutcomeDecision(.write(write), tally: .failed(reason))
        }
    }

    /// What a fault of `row`'s scope does to `row`, which got no 200 this sweep (its push was
    /// not sent, or answered with the fault): an unreachable host backs off like any connection
    /// failure; any other fault holds the row one interval, never every minute.
    public func touched(_ row: DueTarget, by fault: SweepFault, now: Int64) -> (write: OutcomeWrite, tally: SweepTally) {
        guard fault.kind != .unreachable else {
            let decision = backOff(row, fault.reason, now: now)
            guard case .write(let write) = decision.action else { preconditionFailure("a back-off is a write") }
            return (write, decision.tally)
        }
        let write = OutcomeWrite.held(
            row.key, selectedRegisteredAt: row.registeredAt, reason: fault.reason,
            nextPushAt: now + interval(row))
        return (write, .held)
    }

    /// A row the guard holds in an environment that never delivered (SPEC 5, "a fresh deployment
    /// pointed at the wrong place"): its failures count one more and it waits interval x
    /// 2^(failures-1), so a stranger's junk in a quiet sandbox is pushed a handful of times in
    /// its 8 hours, never every interval. Counted as held, under the guard's fault.
    public func heldBackingOff(_ row: DueTarget, reason: String, now: Int64) -> (write: OutcomeWrite, tally: SweepTally) {
        // Junk the guard keeps holding would fill the unproven cap and lock new devices out: a
        // row never proven is deleted at its third hold (a proven one never is: the guard's
        // fresh-deployment rule does not see it, but a fault may).
        if !row.proven && row.guardHolds + 1 >= SweepFault.guardHoldsBeforeDeletion {
            return (.delete(row.key, registeredAtOrBefore: row.registeredAt), .removed(reason))
        }
        // From the kind's own interval, never a longer one the request asked for: junk asking for
        // 3600 s would otherwise live three hours, three of its own intervals (SPEC 5, guard).
        let base = policy.effectiveMilliseconds(row.kind, row.activityType, requested: nil)
        let delay = BackOff.heldDelay(afterFailures: row.failures + 1, interval: base)
        let write = OutcomeWrite.heldByGuard(
            row.key, selectedRegisteredAt: row.registeredAt, reason: reason, nextPushAt: now + delay)
        return (write, .held)
    }

    /// Kept, failures + 1, tried again after the back-off: server trouble, timeouts, no connection.
    private func backOff(_ row: DueTarget, _ reason: String, now: Int64) -> OutcomeDecision {
        let delay = BackOff.delay(afterFailures: row.failures + 1, interval: interval(row))
        let write = OutcomeWrite.failed(
            row.key, selectedRegisteredAt: row.registeredAt, reason: reason, nextPushAt: now + delay)
        return OutcomeDecision(.write(write), tally: .failed(reason))
    }
}
