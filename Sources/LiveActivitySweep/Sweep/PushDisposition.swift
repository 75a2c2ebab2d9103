import APNsHTTP2

/// What the sweep does with one APNs answer: SPEC section 5 step 6, row by row.
public enum PushDisposition: Equatable, Sendable {
    /// 200: last push = now, wakeups + 1, next push = now + interval, failures reset.
    case delivered
    /// 410 Unregistered / ExpiredToken: delete, unless registered again after `timestamp` (ms).
    case unregistered(reason: String, timestamp: Int64?)
    /// 400 BadDeviceToken / DeviceTokenNotForTopic: delete, subject to the mass-deletion guard.
    case badDeviceToken(reason: String)
    /// 403 ExpiredProviderToken: renew the JWT and retry this push once in the same sweep.
    case expiredProviderToken
    /// Our key, team, topic or host is wrong: stop sending, keep everything, exit non-zero.
    case configurationFault(reason: String)
    /// 429, 5xx, timeouts, connection failures: kept, retried at the next sweep, failures + 1.
    case retryLater(reason: String)
    /// Any other 4xx: kept, counted, reason recorded and logged.
    case rejected(reason: String)

    /// Classifies an answer; a push that got none is retried later.
    public init(_ answer: APNsAnswer) {
        guard case .answered(let response) = answer else {
            self = .retryLater(reason: answer.reason)
            return
        }
        let reason = answer.reason
        switch (response.status, reason) {
        case (200, _):
            self = .delivered
        case (410, _):
            self = .unregistered(reason: reason, timestamp: response.timestamp)
        case (400, "BadDeviceToken"), (400, "DeviceTokenNotForTopic"):
            self = .badDeviceToken(reason: reason)
        case (403, "ExpiredProviderToken"):
            self = .expiredProviderToken
        case (403, "InvalidProviderToken"), (403, "MissingProviderToken"), (403, "BadEnvironmentKeyIdInToken"),
            (403, "BadEnvironmentKeyInToken"), (403, "Forbidden"),
            (400, "BadTopic"), (400, "TopicDisallowed"), (400, "MissingTopic"):
            self = .configurationFault(reason: reason)
        case (429, _), (500...599, _):
            self = .retryLater(reason: reason)
        default:
            self = .rejected(reason: reason)
        }
    }
}

extension APNsAnswer {
    /// The reason recorded for this answer: APNs's `reason` (or `HTTP<status>` without one),
    /// `Timeout`, or the transport failure's libcurl code and its fixed text.
    var reason: String {
        switch self {
        case .answered(let response): response.reason ?? "HTTP\(response.status)"
        case .failed(.operationTimedOut): "Timeout"
        case .failed(let code): "Transport(\(code.rawValue)): \(code)"
        }
    }
}
