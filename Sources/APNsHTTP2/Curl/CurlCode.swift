import CCurl

/// libcurl's result code for a transfer that ended without an answer (a CURLcode). It names the
/// failure by `name` (`CURLE_COULDNT_CONNECT`), without libcurl's free text, which carries
/// addresses and durations.
public struct CurlCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    init(_ code: CURLcode) { rawValue = Int(code.rawValue) }

    /// CURLE_FAILED_INIT: a transfer could not even be set up.
    public static let failedInit = CurlCode(CURLE_FAILED_INIT)
    /// CURLE_COULDNT_RESOLVE_HOST: DNS has no address for the host.
    public static let couldNotResolveHost = CurlCode(CURLE_COULDNT_RESOLVE_HOST)
    /// CURLE_COULDNT_CONNECT: nothing accepted the connection.
    public static let couldNotConnect = CurlCode(CURLE_COULDNT_CONNECT)
    /// CURLE_HTTP2: an HTTP/2 framing problem; also a stream above a GOAWAY's last id that
    /// libcurl did not send again.
    public static let http2 = CurlCode(CURLE_HTTP2)
    /// CURLE_PARTIAL_FILE: the connection closed before the response was complete.
    public static let partialFile = CurlCode(CURLE_PARTIAL_FILE)
    /// CURLE_OPERATION_TIMEDOUT: the push took longer than its timeout.
    public static let operationTimedOut = CurlCode(CURLE_OPERATION_TIMEDOUT)
    /// CURLE_SSL_CONNECT_ERROR: the TLS handshake failed (for example plain TCP on the port).
    public static let sslConnectError = CurlCode(CURLE_SSL_CONNECT_ERROR)
    /// CURLE_GOT_NOTHING: the transfer ended without an HTTP status.
    public static let gotNothing = CurlCode(CURLE_GOT_NOTHING)
    /// CURLE_SEND_ERROR: the connection failed while the request was being sent.
    public static let sendError = CurlCode(CURLE_SEND_ERROR)
    /// CURLE_RECV_ERROR: the connection failed while the answer was awaited.
    public static let receiveError = CurlCode(CURLE_RECV_ERROR)
    /// CURLE_SSL_CERTPROBLEM: our own client certificate (unused here) is unusable.
    public static let sslCertificateProblem = CurlCode(CURLE_SSL_CERTPROBLEM)
    /// CURLE_PEER_FAILED_VERIFICATION: the server's certificate is not trusted for the host.
    public static let peerFailedVerification = CurlCode(CURLE_PEER_FAILED_VERIFICATION)
    /// CURLE_SSL_CACERT_BADFILE: the CA file (APNS_CA_FILE) cannot be read.
    public static let badCAFile = CurlCode(CURLE_SSL_CACERT_BADFILE)
    /// CURLE_HTTP2_STREAM: the server reset the stream.
    public static let http2Stream = CurlCode(CURLE_HTTP2_STREAM)

    /// libcurl's fixed text for the code (curl_easy_strerror), the same for every transfer.
    public var description: String {
        // Without libcurl (a test's code, a sweep that sent nothing) the name says it.
        guard CurlLibrary.isLoaded else { return name }
        return String(cString: curl_easy_strerror(CURLcode(rawValue: UInt32(clamping: rawValue))))
    }
}
