import LiveActivityDomain

extension ProviderToken {
    /// Signs a new token for `keyID` and `teamID`, issued at `issuedAt` (Unix seconds): header
    /// `{"alg":"ES256","kid":KEY_ID}`, claims `{"iss":TEAM_ID,"iat":issuedAt}` and a raw r||s
    /// ES256 signature, each part base64url without padding.
    public init(keyID: String, teamID: String, issuedAt: Int64, signer: ES256Signer) throws(OpenSSLError) {
        let header = "{\"alg\":\"ES256\",\"kid\":\(JSONText.string(keyID))}"
        let claims = "{\"iss\":\(JSONText.string(teamID)),\"iat\":\(issuedAt)}"
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(claims)
        let signature = try signer.sign(signingInput)
        self.init(jwt: signingInput + "." + Base64URL.encode(signature), issuedAt: issuedAt)
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
