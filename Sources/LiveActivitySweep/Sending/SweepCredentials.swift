import APNsJWT
import LiveActivityDomain

/// The settings a sweep cannot run without (SPEC 6): key id, team id, bundle id and the key,
/// from `APNS_KEY` or the file `APNS_KEY_PATH` names - of one app: the default app's from the
/// plain settings, another's from `settings.forApp(app)` (`ofEveryApp`).
public struct SweepCredentials {
    public let keyID: String
    public let teamID: String
    public let bundleID: String
    public let keyPEM: String
    /// The key loaded into libcrypto, at the first token it signs: a run that signs none (nothing
    /// due, or the kept token still good) never loads libcrypto.
    private let signing: KeySigning

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
        // The key's structure, read without libcrypto; libcrypto reads it again when it first signs.
        do {
            try ES256KeyCheck.privateKey(pem: keyPEM)
        } catch {
            throw .badKey(reason: error.description)
        }
        signing = KeySigning(pem: keyPEM)
    }

    /// Each app's credentials (SPEC 6 "Several apps"): the default app's from the plain settings,
    /// each further app's from its own `_<NAME>` settings, the default app's where it has none.
    /// Two apps are never one topic (`Settings.bundleIDs`), and two keys are never one team and
    /// key id: APNs would bind both to one connection pool and one token.
    public static func ofEveryApp(_ settings: Settings) throws(ConfigurationError) -> [AppName: SweepCredentials] {
        let apps = try settings.apps()
        // The default app's first, its settings checked in their order as with one app (a fresh
        // install names APNS_KEY_ID first); then every app's own bundle id, distinct.
        var credentials: [AppName: SweepCredentials] = [.defaultApp: try SweepCredentials(settings: settings)]
        _ = try settings.bundleIDs(of: apps)
        for app in apps where !app.isDefault {
            let own = try SweepCredentials(settings: settings.forApp(app))
            if let other = apps.first(where: {
                credentials[$0].map { $0.identity == own.identity && $0.tokenCacheKey != own.tokenCacheKey } == true
            }) {
                throw .malformed(
                    name: app.settingName("APNS_KEY_ID"),
                    expected: "the id of its own key: app \(other) names another key under team \(own.teamID), key \(own.keyID)")
            }
            credentials[app] = own
        }
        return credentials
    }

    /// What decides where every app's pushes go and who they are from (`settingsFingerprint`):
    /// with one app, its own; with several, a hash of each app's, so a change of any app's
    /// settings releases what the faults and the guard held.
    public static func settingsFingerprint(of apps: [AppName: SweepCredentials], host: String?) -> String {
        if apps.count == 1, let only = apps.values.first { return only.settingsFingerprint(host: host) }
        let each = apps.keys.sorted().compactMap { app in apps[app].map { "\(app)=\($0.settingsFingerprint(host: host))" } }
        return ProviderToken.cacheKey(keyID: "apps", teamID: "", keyPEM: each.joined(separator: "\n"))
    }

    /// Who signs this app's pushes: its team and key.
    public var identity: SigningIdentity { SigningIdentity(teamID: teamID, keyID: keyID) }

    /// How this app's pushes go out: its bundle id, signed by its identity.
    public var route: AppRoute { AppRoute(bundleID: bundleID, identity: identity) }

    /// The cache key of the provider token: any change of key id, team or key renews it.
    public var tokenCacheKey: String { ProviderToken.cacheKey(keyID: keyID, teamID: teamID, keyPEM: keyPEM) }

    /// What decides where pushes go and who they are from: key id, team, key, bundle id and the
    /// host pushes are sent to (`APNS_HOST`, nil: Apple's). When it changes between sweeps, the
    /// registrations a fault or the guard held are due at once (SPEC 5). A hash: the key's text
    /// never reaches the database.
    public func settingsFingerprint(host: String?) -> String {
        ProviderToken.cacheKey(keyID: keyID, teamID: teamID, keyPEM: keyPEM + "\n" + bundleID + "\n" + (host ?? "apple"))
    }

    /// Signs a provider token issued at `seconds`. Throws `SharedLibraryError` when libcrypto
    /// cannot be loaded, `ConfigurationError.badKey` when it refuses the key.
    public func issueToken(at seconds: Int64) throws -> ProviderToken {
        try ProviderToken(keyID: keyID, teamID: teamID, issuedAt: seconds, signer: signing.signer())
    }
}

/// An app's key, loaded into libcrypto at its first use and kept for the run.
private final class KeySigning {
    private let pem: String
    private var loaded: ES256Signer?

    init(pem: String) { self.pem = pem }

    func signer() throws -> ES256Signer {
        if let loaded { return loaded }
        do {
            let signer = try ES256Signer(pem: pem)
            loaded = signer
            return signer
        } catch .library(let error) {
            throw error
        } catch {
            throw ConfigurationError.badKey(reason: error.description)
        }
    }
}
