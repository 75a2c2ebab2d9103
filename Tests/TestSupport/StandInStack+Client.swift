import APNsHTTP2
import APNsJWT
import LiveActivityCore

/// What an `APNsClient` needs to push to the stand-in directly.
extension StandInStack {
    /// Client options for this stand-in: its URL, its bundle id as the topic, its certificate trusted.
    public func clientOptions() -> APNsClientOptions {
        var options = APNsClientOptions(baseURL: baseURL, topic: key.bundleID)
        options.caFile = certificatePath
        return options
    }

    /// A provider token the stand-in accepts, signed with its key, issued `secondsAgo` before now.
    public func providerToken(issuedSecondsAgo secondsAgo: Int64 = 0) throws -> ProviderToken {
        try ProviderToken(
            keyID: key.keyID, teamID: key.teamID, issuedAt: Clock().now() / 1000 - secondsAgo,
            signer: ES256Signer(pem: key.privateKeyPEM))
    }
}
