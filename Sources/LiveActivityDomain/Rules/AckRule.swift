/// Which push an ack is for (SPEC 3, `POST /wakeup/ack`): the registration's latest push that
/// APNs answered 200 and that was sent before the ack came, when it has no ack yet and was
/// answered at most two of its effective intervals before. The responder judges an ack by it
/// when it comes; the sweep judges an ack that came while a push was on its way (`waits`) once
/// that push's answer is written. Pure: no engine's SQL decides it.
public enum AckRule {
    /// What an ack comes to against a registration's attempts.
    public enum Verdict: Equatable, Sendable {
        /// The attempt at `index` (newest first) is acknowledged, `delayMilliseconds` after APNs's 200.
        case matched(index: Int, delayMilliseconds: Int64)
        /// That push was acknowledged already.
        case duplicate
        /// No push answered 200 was sent before the ack, or the latest is older than two intervals.
        case unmatched

        /// The counted outcome.
        public var outcome: AckOutcome {
            switch self {
            case .matched: .matched
            case .duplicate: .duplicate
            case .unmatched: .unmatched
            }
        }
    }

    /// The verdict on an ack at `ackAt` (Unix ms) for `attempts` (newest first) of a registration
    /// pushed every `intervalMilliseconds`.
    public static func judge(ackAt: Int64, attempts: [PushAttempt], intervalMilliseconds: Int64) -> Verdict {
        // A push sent after the ack cannot be the one the phone woke from.
        guard let index = attempts.firstIndex(where: { $0.status == 200 && $0.sentAt <= ackAt }) else { return .unmatched }
        let push = attempts[index]
        if push.ackedAt != nil { return .duplicate }
        let age = ackAt.subtractingReportingOverflow(push.answeredAt)
        guard !age.overflow, age.partialValue <= 2 * intervalMilliseconds else { return .unmatched }
        return .matched(index: index, delayMilliseconds: max(0, age.partialValue))
    }

    /// Whether an ack at `now` may be for a push still on its way: the registration is due (the
    /// sweep reads it within `SweepTiming.dueSlackMilliseconds` of its next push), so its push may
    /// be in flight or answered and not yet written. Such an ack waits on the row, and the sweep
    /// judges it once that push's outcome is written: judged now it would go unmatched, or to the
    /// push before with a delay of a whole interval.
    public static func waits(nextPushAt: Int64, now: Int64) -> Bool {
        nextPushAt <= now.addingReportingOverflow(SweepTiming.dueSlackMilliseconds).partialValue
    }

    /// `attempts` with the one at `index` marked acknowledged `delayMilliseconds` after its 200.
    public static func marking(_ attempts: [PushAttempt], index: Int, delayMilliseconds: Int64) -> [PushAttempt] {
        var marked = attempts
        marked[index].ackDelayMilliseconds = delayMilliseconds
        marked[index].ackedAt = marked[index].answeredAt.addingReportingOverflow(delayMilliseconds).partialValue
        return marked
    }
}
