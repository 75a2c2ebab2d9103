import LiveActivityCore

/// An APNs provider authentication token (SPEC section 5, "APNs provider token"): a JWT with
/// header `{"alg":"ES256","kid":KEY_ID}`, claims `{"iss":TEAM_ID,"iat":unix-seconds}` and a raw
/// r||s ES256 signature, each part base64url without padding.
public struct ProviderToken: Sendable, Equatable {
    /// The compact JWT, `header.claims.signature`.
    public let jwt: String
    /// The `iat` claim, Unix seconds.
    public let issuedAt: Int64

    /// Renew after this many seconds: APNs rejects tokens older than an hour and answers
    /// TooManyProviderTokenUpdates for renewals closer than 20 minutes (APNS.md section 4).
    public static let renewalAgeSeconds: Int64 = 50 * 60

    /// Wraps a token read back from the cache.
    public init(jwt: String, issuedAt: Int64) {
        self.jwt = jwt
        self.issuedAt = issuedAt
    }

    /// Signs a new token for `keyID` and `teamID`, issued at `issuedAt` (Unix seconds).
    public init(keyID: String, teamID: String, issuedAt: Int64, signer: ES256Signer) throws(OpenSSLError) {
        let header = "{\"alg\":\"ES256\",\"kid\":\(JSONText.string(keyID))}"
        let claims = "{\"iss\":\(JSONText.string(teamID)),\"iat\":\(issuedAt)}"
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(claims)
        let signature = try signer.sign(signingInput)
        self.init(jwt: signingInput + "." + Base64URL.encode(signature), issuedAt: issuedAt)
    }

    /// The `authorization` header value, `bearer <JWT>`.
    public var authorization: String { "bearer " + jwt }

    /// Whether the token is old enough to renew at `now` (Unix seconds); a token from the future
    /// (clock moved back) is renewed too.
    public func needsRenewal(at now: Int64) -> Bool {
        now - issuedAt >= Self.renewalAgeSeconds || now < issuedAt
    }

    /// The key a cached token is stored under: hex SHA-256 over key id, team id and the key's PEM
    /// text, so changing any of these settings invalidates the cached token (SPEC section 5).
    public static func cacheKey(keyID: String, teamID: String, keyPEM: String) -> String {
        // NUL separators: none of the three can contain one, so the fields cannot run together.
        var input = Array(keyID.utf8)
        input.append(0)
        input += teamID.utf8
        input.append(0)
        input += keyPEM.utf8
        return SHA256Digest.hex(input)
    }
}
