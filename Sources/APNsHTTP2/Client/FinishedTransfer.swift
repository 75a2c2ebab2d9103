/// What libcurl reported when one push's transfer ended, and what that comes to: an answer for
/// the caller, or one more try. Pure, so each fault libcurl 7.88 and nginx were seen to produce
/// is a test case without a network.
struct FinishedTransfer: Equatable {
    /// libcurl's result code for the transfer.
    var result: CurlCode
    /// The response's HTTP status, 0 when none arrived.
    var status: Int
    /// CURLINFO_HTTP_VERSION of the response: 3 is HTTP/2 (CURL_HTTP_VERSION_2_0).
    var httpVersion: Int
    /// CURLINFO_REQUEST_SIZE: request bytes sent; 0 when the request never left.
    var requestBytes: Int
    /// Response body bytes received.
    var bodyBytes: Int
    /// The response's Content-Length, when it sent one.
    var contentLength: Int?
    /// Whether this was already the push's second try.
    var wasResent: Bool

    static let http2Version = 3

    /// What the transfer comes to.
    enum Verdict: Equatable {
        /// Give the caller this answer. `afterError` marks a complete answer that libcurl
        /// reported with an error code (the stream reset after the answer, RFC 9113 8.1).
        case answer(APNsAnswer, afterError: Bool)
        /// Send the push again, once, on a fresh handle: the stream died without an answer in a
        /// way that says nothing about the push (GOAWAY'd, refused, connection closed mid-stream).
        case resend
    }

    /// Codes of a stream that ended without an answer for reasons of the connection, not the push.
    static let resendable: Set<CurlCode> = [.http2, .partialFile, .sendError, .receiveError, .http2Stream]
    /// Codes of a connection that could not be made: nothing reached a server.
    static let connectFailures: Set<CurlCode> = [
        .couldNotResolveHost, .couldNotConnect, .sslConnectError, .peerFailedVerification, .badCAFile,
        .sslCertificateProblem, CurlCode(rawValue: 5),  // CURLE_COULDNT_RESOLVE_PROXY
    ]

    /// Answered is decided by the status and a complete body, not by the result code: a 200
    /// followed by RST_STREAM(NO_ERROR) is reported as 92, 18 or 16 with everything received.
    var isCompleteAnswer: Bool {
        guard status >= 200 else { return false }
        if result.rawValue == 0 { return true }
        if let contentLength { return bodyBytes == contentLength }
        // No length: APNs's success has no body, and an error body short enough to be whole.
        return status == 200 && bodyBytes == 0
    }

    func verdict(response: () -> APNsResponse) -> Verdict {
        if isCompleteAnswer {
            guard httpVersion == Self.http2Version else { return .answer(.notHTTP2, afterError: false) }
            return .answer(.answered(response()), afterError: result.rawValue != 0)
        }
        if Self.connectFailures.contains(result) || (result == .operationTimedOut && requestBytes == 0) {
            return .answer(.unreachable(result), afterError: false)
        }
        if Self.resendable.contains(result) && !wasResent { return .resend }
        return .answer(.failed(result.rawValue == 0 ? .gotNothing : result), afterError: false)
    }
}
