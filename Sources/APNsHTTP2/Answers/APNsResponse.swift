import LiveActivityDomain

/// What APNs answered to one push (APNS.md section 5): the status, the `reason` and, on 410,
/// the `timestamp` of its JSON body, and the `apns-id` header.
public struct APNsResponse: Sendable, Equatable {
    /// The HTTP status (200 on success).
    public var status: Int
    /// The body's `reason`, such as `BadDeviceToken`; nil on success or an unreadable body.
    public var reason: String?
    /// The body's `timestamp` (Unix milliseconds) on a 410: when APNs learned the token was gone.
    public var timestamp: Int64?
    /// The `apns-id` response header.
    public var apnsID: String?

    public init(status: Int, reason: String? = nil, timestamp: Int64? = nil, apnsID: String? = nil) {
        self.status = status
        self.reason = reason
        self.timestamp = timestamp
        self.apnsID = apnsID
    }

    /// Reads `reason` and `timestamp` from an error body; anything else in it is ignored.
    public init(status: Int, body: [UInt8], apnsID: String?) {
        self.init(status: status, apnsID: apnsID)
        guard !body.isEmpty, let members = try? JSONReader.members(of: body) else { return }
        if case .string(let text) = members["reason"] { reason = text }
        // Apple sends a JSON number; accept a numeric string too rather than lose the guard.
        switch members["timestamp"] {
        case .number(let number): timestamp = Int64(saturating: number)
        case .string(let text): timestamp = Int64(text)
        default: break
        }
    }

    /// 200: APNs accepted the push.
    public var isSuccess: Bool { status == 200 }
}
