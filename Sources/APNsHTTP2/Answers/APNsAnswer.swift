/// What came back for one push, made by the client and read unchanged by whoever decides what
/// it means (the sweep): APNs's response, or no response and libcurl's code for why.
public enum APNsAnswer: Sendable, Equatable {
    /// APNs answered (any status).
    case answered(APNsResponse)
    /// No answer arrived: connection refused, TLS verification, timeout, reset stream...
    case failed(CurlCode)

    /// The response, if APNs answered.
    public var response: APNsResponse? {
        if case .answered(let response) = self { return response }
        return nil
    }

    /// The HTTP status, nil when no answer arrived.
    public var status: Int? { response?.status }

    /// Whether no answer arrived because the push took longer than its timeout.
    public var isTimeout: Bool { self == .failed(.operationTimedOut) }
}
