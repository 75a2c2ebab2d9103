/// What came back for one push, made by the client and read unchanged by whoever decides what
/// it means (the sweep): APNs's response; no response, and libcurl's code for why; or no APNs
/// at all at the other end.
public enum APNsAnswer: Sendable, Equatable {
    /// APNs answered (any status) over HTTP/2: a status and a complete body, whatever libcurl's
    /// result code (a complete answer followed by RST_STREAM(NO_ERROR) is that answer, RFC 9113 8.1).
    case answered(APNsResponse)
    /// The request went out but no complete answer came back: a timeout, a stream reset twice,
    /// a connection lost mid-stream.
    case failed(CurlCode)
    /// The request never reached a server: no connection could be made (refused, DNS, TLS
    /// handshake or certificate, a connect timeout). The same for every push to that host.
    case unreachable(CurlCode)
    /// A server answered without HTTP/2, so it is not APNs (APNS.md section 1): a wrong host.
    case notHTTP2

    /// The response, if APNs answered.
    public var response: APNsResponse? {
        if case .answered(let response) = self { return response }
        return nil
    }

    /// The HTTP status, nil when no answer arrived.
    public var status: Int? { response?.status }

    /// Whether no answer arrived because the push (or its connection) took longer than its timeout.
    public var isTimeout: Bool { self == .failed(.operationTimedOut) || self == .unreachable(.operationTimedOut) }
}
