import CCurl

/// libcurl's result code for a transfer that ended without an answer (a CURLcode). It names the
/// failure without libcurl's free text, which carries addresses and durations.
public struct CurlCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    init(_ code: CURLcode) { rawValue = Int(code.rawValue) }

    /// CURLE_FAILED_INIT: a transfer could not even be set up.
    public static let failedInit = CurlCode(CURLE_FAILED_INIT)
    /// CURLE_COULDNT_CONNECT: nothing accepted the connection.
    public static let couldNotConnect = CurlCode(CURLE_COULDNT_CONNECT)
    /// CURLE_OPERATION_TIMEDOUT: the push took longer than its timeout.
    public static let operationTimedOut = CurlCode(CURLE_OPERATION_TIMEDOUT)
    /// CURLE_GOT_NOTHING: the transfer ended without an HTTP status.
    public static let gotNothing = CurlCode(CURLE_GOT_NOTHING)
    /// CURLE_PEER_FAILED_VERIFICATION: the server's certificate is not trusted.
    public static let peerFailedVerification = CurlCode(CURLE_PEER_FAILED_VERIFICATION)

    /// libcurl's fixed text for the code (curl_easy_strerror), the same for every transfer.
    public var description: String {
        String(cString: curl_easy_strerror(CURLcode(rawValue: UInt32(clamping: rawValue))))
    }
}
