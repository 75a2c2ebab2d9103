import APNsJWT
import LiveActivityDomain

/// What the stand-in checks against: for each app the sweep serves, the same key id, team id and
/// bundle id the sweep uses and the public half of its key. Read from the same names as the sweep
/// (`APNS_KEY_ID`, ..., and each further app's `_<NAME>` settings, SPEC 6 "Several apps"), plus
/// `STANDIN_DB`, the stand-in's own SQLite file of received pushes and scripted answers, and
/// `STANDIN_KEY_ENVIRONMENTS`, the environments a key may send to (Apple lets a key be
/// restricted to one): a push to another answers 403 BadEnvironmentKeyInToken.
public struct StandInConfiguration: Sendable {
    /// One app the stand-in takes pushes for: the team and key that sign them, and its topic.
    public struct App: Sendable {
        public var name: AppName
        public var keyID: String
        public var teamID: String
        public var bundleID: String
        /// PEM of the public key that must have signed the provider tokens.
        public var publicKeyPEM: String
        /// The environments the key may send to.
        public var keyEnvironments: [APNsEnvironment]

        public init(
            name: AppName = .defaultApp, keyID: String, teamID: String, bundleID: String, publicKeyPEM: String,
            keyEnvironments: [APNsEnvironment] = APNsEnvironment.allCases
        ) {
            self.name = name
            self.keyID = keyID
            self.teamID = teamID
            self.bundleID = bundleID
            self.publicKeyPEM = publicKeyPEM
            self.keyEnvironments = keyEnvironments
        }
    }

    /// The default app first.
    public var apps: [App]
    public var databasePath: String
    public var clock: Clock

    public init(apps: [App], databasePath: String, clock: Clock = Clock()) {
        self.apps = apps
        self.databasePath = databasePath
        self.clock = clock
    }

    /// One app (the default).
    public init(
        keyID: String, teamID: String, bundleID: String, publicKeyPEM: String, databasePath: String, clock: Clock = Clock(),
        keyEnvironments: [APNsEnvironment] = APNsEnvironment.allCases
    ) {
        self.init(
            apps: [
                App(
                    keyID: keyID, teamID: teamID, bundleID: bundleID, publicKeyPEM: publicKeyPEM,
                    keyEnvironments: keyEnvironments)
            ], databasePath: databasePath, clock: clock)
    }

    /// Reads the settings (the environment over the `LIVEACTIVITY_CONFIG` file): for each app, the
    /// key comes from `STANDIN_PUBLIC_KEY_PATH`, or else the public half of `APNS_KEY` /
    /// `APNS_KEY_PATH` (each with the app's suffix, falling back to the default app's).
    public static func fromProcess() throws -> StandInConfiguration {
        let settings = try Settings.fromProcess()
        let names = try settings.apps()
        // Each app's own bundle id, checked distinct: one line naming the setting otherwise.
        let bundleIDs = try settings.bundleIDs(of: names)
        var apps: [App] = []
        for name in names {
            guard let bundleID = bundleIDs[name] else {
                throw ConfigurationError.missing(name: name.settingName("APNS_BUNDLE_ID"))
            }
            let app = settings.forApp(
                name, names: Settings.perAppNames + ["STANDIN_KEY_ENVIRONMENTS"],
                keyNames: Settings.perAppKeyNames + ["STANDIN_PUBLIC_KEY_PATH"])
            let publicKey: String
            if let path = app.text("STANDIN_PUBLIC_KEY_PATH") {
                do { publicKey = try APNsKeyFile.read(path) } catch {
                    throw ES256KeyError.unreadableFile(path: path, reason: error.description)
                }
            } else if let pem = app.verbatim("APNS_KEY") {
                publicKey = try ES256Signer(pem: pem).publicKeyPEM()
            } else if let path = app.text("APNS_KEY_PATH") {
                publicKey = try ES256Signer(path: path).publicKeyPEM()
            } else {
                throw ConfigurationError.missing(name: name.settingName("STANDIN_PUBLIC_KEY_PATH") + " or APNS_KEY_PATH")
            }
            apps.append(
                App(
                    name: name, keyID: try app.required("APNS_KEY_ID"), teamID: try app.required("APNS_TEAM_ID"),
                    bundleID: bundleID, publicKeyPEM: publicKey,
                    keyEnvironments: try app.environments("STANDIN_KEY_ENVIRONMENTS") ?? APNsEnvironment.allCases))
        }
        return StandInConfiguration(
            apps: apps, databasePath: settings.text("STANDIN_DB") ?? "./var/apns-standin.sqlite",
            clock: try Clock(settings: settings))
    }
}
