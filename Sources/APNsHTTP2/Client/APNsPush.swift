import LiveActivityDomain

/// One push to send: the caller's id for it (an index into its own rows), the device token and
/// the `apns-expiration` time.
public struct APNsPush: Sendable, Equatable {
    /// Opaque to the client; returned with the answer.
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
