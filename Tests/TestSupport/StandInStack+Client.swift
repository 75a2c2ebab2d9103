import APNsHTTP2
import APNsJWT
import LiveActivityDomain

/// What an `APNsClient` needs to push to the stand-in directly.
extension StandInStack {
    /// Client options for this stand-in as the sweep makes them: pushes name Apple's host of
    /// `environment` and connect here, its certificate trusted (a push names `key.bundleID` itself).
    public func clientOptions(environment: APNsEnvironment = .production) -> APNsClientOptions {
        var options = APNsClientOptions(environment: environment, connectTo: "127.0.0.1:\(port)")
        options.caFile = certificatePath
        return options
    }

    /// A provider token the stand-in accepts, signed with its key, issued `secondsAgo` before the
    /// stack's first token. Every call with the same `secondsAgo` gives the same token: APNs (and
    /// the stand-in) answer 429 TooManyProviderTokenUpdates to a new one within 20 minutes, so two
    /// clients whose tokens were made either side of a second's turn got 429s on a loaded machine.
    public func providerToken(issuedSecondsAgo secondsAgo: Int64 = 0) throws -> ProviderToken {
        let epoch = tokenEpoch.update { epoch in
            if epoch == nil { epoch = Clock().now() / 1000 }
            return epoch!
        }
        return try ProviderToken(
            keyID: key.keyID, teamID: key.teamID, issuedAt: epoch - secondsAgo, signer: ES256Signer(pem: key.privateKeyPEM))
    }
}
