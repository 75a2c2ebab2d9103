import APNsJWT
import Foundation
import LiveActivityCore

/// The settings a sweep cannot run without (SPEC 6): key id, team id, bundle id and the key.
public struct SweepCredentials {
    public let keyID: String
    public let teamID: String
    public let bundleID: String
    public let keyPEM: String
    public let signer: ES256Signer

    /// Checks and loads them; each failure is one line naming the setting.
    public init(_ configuration: Configuration) throws {
        func required(_ value: String?, _ name: String) throws(ConfigurationError) -> String {
            guard let value, !value.isEmpty else { throw .missing(name: name) }
            return value
        }
        keyID = try required(configuration.apnsKeyID, "APNS_KEY_ID")
        teamID = try required(configuration.apnsTeamID, "APNS_TEAM_ID")
        bundleID = try required(configuration.apnsBundleID, "APNS_BUNDLE_ID")
        if let pem = configuration.apnsKeyPEM {
            keyPEM = pem
        } else if let path = configuration.apnsKeyPath {
            do {
                keyPEM = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw ConfigurationError.unreadableKey(path: path, reason: Self.reason(path))
            }
        } else {
            throw ConfigurationError.missing(name: "APNS_KEY_PATH or APNS_KEY")
        }
        do {
            signer = try ES256Signer(pem: keyPEM)
        } catch {
            throw ConfigurationError.badKey(reason: error.description)
        }
    }

    /// The cache key of the provider token: any change of key id, team or key renews it.
    public var tokenCacheKey: String { ProviderToken.cacheKey(keyID: keyID, teamID: teamID, keyPEM: keyPEM) }

    /// Signs a provider token issued at `seconds`.
    public func issueToken(at seconds: Int64) throws -> ProviderToken {
        try ProviderToken(keyID: keyID, teamID: teamID, issuedAt: seconds, signer: signer)
    }

    private static func reason(_ path: String) -> String {
        if !FileManager.default.fileExists(atPath: path) { return "no such file" }
        if !FileManager.default.isReadableFile(atPath: path) { return "permission denied (run the sweep as the key's owner)" }
        return "not UTF-8 PEM text"
    }
}
