import APNsHTTP2
import LiveActivityDomain

extension APNsAnswer {
    /// The reason recorded for this answer, from a bounded vocabulary (SPEC 5, "Failure reasons"):
    /// APNs's documented `reason`, else `HTTP<status>` (`APNsReason.recorded`); the libcurl code's
    /// name for a push that got no answer (`CURLE_OPERATION_TIMEDOUT`); `NotHTTP2` for a server
    /// that is not APNs.
    public var reason: String {
        switch self {
        case .answered(let response): APNsReason.recorded(status: response.status, reason: response.reason)
        case .failed(let code), .unreachable(let code): code.name
        case .notHTTP2: APNsReason.notHTTP2
        }
    }
}
