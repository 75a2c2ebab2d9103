import LiveActivityDomain

/// One push to send: the caller's id for it (an index into its own rows), the token, its kind
/// (headers, topic and payload) and the `apns-expiration` time.
public struct APNsPush: Sendable, Equatable {
    /// Opaque to the client; returned with the answer.
    public var id: Int
    public var token: PushToken
    public var kind: PushKind
    /// `apns-expiration`, Unix seconds (SPEC section 5: now + the target's interval); sent only
    /// for a kind that `expires`.
    public var expiration: Int64

    public init(id: Int, token: PushToken, kind: PushKind = .wake, expiration: Int64) {
        self.id = id
        self.token = token
        self.kind = kind
        self.expiration = expiration
    }
}
