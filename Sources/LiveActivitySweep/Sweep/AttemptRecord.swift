import APNsHTTP2
import LiveActivityDomain

/// What the attempt history keeps of a push's final answer (SPEC 4): the HTTP status and APNs's
/// reason and `apns-id`, or, without an answer, the transport failure's code name (the same
/// bounded vocabulary as the failure reasons, `APNsAnswer.reason`).
enum AttemptRecord {
    static func answered(_ answer: APNsAnswer, for row: DueTarget, sentAt: Int64, answeredAt: Int64)
        -> AnsweredPush
    {
        let response = answer.response
        let attempt = PushAttempt(
            token: row.token, sentAt: sentAt, answeredAt: answeredAt, status: response?.status,
            reason: response?.isSuccess == true ? nil : answer.reason, apnsID: response?.apnsID)
        return AnsweredPush(
            key: row.key, attempt: attempt, activityType: row.activityType, environment: row.environment,
            previousDeliveryAt: row.lastPushAt)
    }
}
