/// One final answer to a push, as the attempt history keeps it (SPEC 4: a registration's last
/// 20): when it was sent and answered (Unix ms), the HTTP status or, without an answer, the
/// transport failure's code name, APNs's reason and `apns-id`, and when the app acknowledged it.
public struct PushAttempt: Sendable, Equatable {
    public var token: PushToken
    public var sentAt: Int64
    public var answeredAt: Int64
    /// nil: no HTTP answer (a transport failure; `reason` names it).
    public var status: Int?
    /// APNs's reason, or the libcurl code name of a transport failure; nil on a 200.
    public var reason: String?
    public var apnsID: String?
    public var ackedAt: Int64?
    public var ackDelayMilliseconds: Int64?

    public init(
        token: PushToken, sentAt: Int64, answeredAt: Int64, status: Int?, reason: String?, apnsID: String?,
        ackedAt: Int64? = nil, ackDelayMilliseconds: Int64? = nil
    ) {
        self.token = token
        self.sentAt = sentAt
        self.answeredAt = answeredAt
        self.status = status
        self.reason = reason
        self.apnsID = apnsID
        self.ackedAt = ackedAt
        self.ackDelayMilliseconds = ackDelayMilliseconds
    }

    /// How many attempts a registration keeps.
    public static let kept = 20
}
