import LiveActivityDomain

/// One push to send: the caller's id for it (an index into its own rows), the token, its kind
/// (headers, topic suffix and payload), the app it is for and the `apns-expiration` time.
public struct APNsPush: Sendable, Equatable {
    /// Opaque to the client; returned with the answer.
    public var id: Int
    public var token: PushToken
    public var kind: PushKind
    /// The app's bundle id: `apns-topic` is this with the kind's suffix (`PushKind.topic(forBundleID:)`).
    /// One client sends for every app its provider token's team and key may sign for.
    public var bundleID: String
    /// `apns-expiration`, Unix seconds (SPEC section 5: now + the target's interval); sent only
    /// for a kind that `expires`.
    public var expiration: Int64

    public init(id: Int, token: PushToken, kind: PushKind = .wake, bundleID: String, expiration: Int64) {
        self.id = id
        self.token = token
        self.kind = kind
        self.bundleID = bundleID
        self.expiration = expiration
    }
}
