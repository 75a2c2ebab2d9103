import LiveActivityCore

/// How one push ended: APNs answered (any status), or the request never got an answer.
public enum PushOutcome: Sendable, Equatable {
    /// An HTTP response arrived.
    case answered(APNsResponse)
    /// No response: connection refused, DNS, TLS verification, timeout, reset stream...
    /// `code` is libcurl's CURLcode (7 connection refused, 28 timeout, 35 TLS handshake,
    /// 60 certificate verification), `message` libcurl's own text.
    case transportFailure(code: Int, message: String)

    /// libcurl's CURLE_OPERATION_TIMEDOUT.
    public static let timeoutCode = 28

    /// The answer, if there was one.
    public var response: APNsResponse? {
        if case .answered(let response) = self { return response }
        return nil
    }

    /// Whether this was a transport failure caused by a timeout.
    public var isTimeout: Bool {
        if case .transportFailure(let code, _) = self { return code == Self.timeoutCode }
        return false
    }
}

/// One push to send: the caller's id for it (an index into its own rows), the device token and
/// the `apns-expiration` time.
public struct APNsPush: Sendable, Equatable {
    /// Opaque to the client; returned with the outcome.
    public var id: Int
    public var token: PushToken
    /// `apns-expiration`, Unix seconds (SPEC section 5: now + the registration's interval).
    public var expiration: Int64

    public init(id: Int, token: PushToken, expiration: Int64) {
        self.id = id
        self.token = token
        self.expiration = expiration
    }
}

/// A finished push: the caller's id and what happened.
public struct APNsCompletion: Sendable, Equatable {
    public var id: Int
    public var outcome: PushOutcome

    public init(id: Int, outcome: PushOutcome) {
        self.id = id
        self.outcome = outcome
    }
}
