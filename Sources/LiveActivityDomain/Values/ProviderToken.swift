/// An APNs provider authentication token (SPEC section 5, "APNs provider token"): the compact JWT
/// and its `iat`. A plain value, so it travels as one type from the cache through the sweep to the
/// client; signing one needs the key and lives with libcrypto (APNsJWT).
public struct ProviderToken: Sendable, Hashable {
    /// The compact JWT, `header.claims.signature`.
    public let jwt: String
    /// The `iat` claim, Unix seconds.
    public let issuedAt: Int64

    /// Renew after this many seconds: APNs rejects tokens older than an hour and answers
    /// TooManyProviderTokenUpdates for renewals closer than 20 minutes (APNS.md section 4).
    public static let renewalAgeSeconds: Int64 = 50 * 60
    /// How far in the future a token may claim to be issued before it counts as the clock having
    /// gone back, and is renewed.
    public static let toleratedFutureSeconds: Int64 = 60

    public init(jwt: String, issuedAt: Int64) {
        self.jwt = jwt
        self.issuedAt = issuedAt
    }

    /// The `authorization` header value, `bearer <JWT>`.
    public var authorization: String { "bearer " + jwt }

    /// The one renewal rule: whether the token should be replaced at `now` (Unix milliseconds,
    /// the clock's unit) - it is 50 minutes old, or issued more than a minute in the future.
    public func needsRenewal(atMilliseconds now: Int64) -> Bool {
        // Read back from a file or a database: a planted issue time renews, never traps.
        let issued = issuedAt.multipliedSaturated(by: 1000)
        return now.subtractingSaturated(issued) >= Self.renewalAgeSeconds * 1000
            || issued > now.addingSaturated(Self.toleratedFutureSeconds * 1000)
    }
}
