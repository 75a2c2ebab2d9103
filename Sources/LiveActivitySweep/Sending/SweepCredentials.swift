import APNsJWT
import LiveActivityDomain

/// The settings a sweep cannot run without (SPEC 6): key id, team id, bundle id and the key,
/// from `APNS_KEY` or the file `APNS_KEY_PATH` names.
public struct SweepCredentials {
    public let keyID: String
    public let teamID: String
    public let bundleID: String
    public let keyPEM: String
    public let signer: ES256Signer

    /// Checks and loads them; each failure is one line naming the setting.
    public init(settings: Settings) throws(ConfigurationError) {
        keyID = try settings.required("APNS_KEY_ID")
        teamID = try settings.required("APNS_TEAM_ID")
        bundleID = try settings.required("APNS_BUNDLE_ID")
        if let pem = settings.verbatim("APNS_KEY") {
            keyPEM = pem
        } else if let path = settings.text("APNS_KEY_PATH") {
            do {
                keyPEM = try APNsKeyFile.read(path)
            } catch .permissionDenied {
                throw .unreadableKey(path: path, reason: "permission denied (run the sweep as the key's owner)")
            } catch {
                throw .unreadableKey(path: path, reason: error.description)
            }
        } else {
            throw .missing(name: "APNS_KEY_PATH or APNS_KEY")
        }
        do {
            signer = try ES256Signer(pem: keyPEM)
        } catch {
            throw .badKey(reason: error.description)
        }
    }

    /// The cache key of the provider token: any change of key id, team or key renews it.
    public var tokenCacheKey: String { ProviderToken.cacheKey(keyID: keyID, teamID: teamID, keyPEM: keyPEM) }

    /// What decides where pushes go and who they are from: key id, team, key, bundle id and the
    /// host pushes are sent to (`APNS_HOST`, nil: Apple's). When it changes between sweeps, the
    /// registrations a fault or the guard held are due at once (SPEC 5). A hash: the key's text
    /// never reaches the database.
    public func settingsFingerprint(host: String?) -> String {
        ProviderToken.cacheKey(keyID: keyID, teamID: teamID, keyPEM: keyPEM + "\n" + bundleID + "\n" + (host ?? "apple"))
    }

    /// Signs a provider token issued at `seconds`.
    public func issueToken(at seconds: Int64) throws -> ProviderToken {
        try ProviderToken(keyID: keyID, teamID: teamID, issuedAt: seconds, signer: signer)
    }
}
