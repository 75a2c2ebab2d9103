import APNsHTTP2

extension APNsAnswer {
    /// The reason recorded for this answer: APNs's `reason` (`HTTP<status>` without one),
    /// `Timeout`, or the transport failure's libcurl code and its fixed text.
    public var reason: String {
        switch self {
        case .answered(let response): response.reason ?? "HTTP\(response.status)"
        case .failed(.operationTimedOut): "Timeout"
        case .failed(let code): "Transport(\(code.rawValue)): \(code)"
        }
    }
}
