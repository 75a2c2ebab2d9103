import APNsJWT
import LiveActivityDomain

/// What the stand-in checks against: the same key id, team id and bundle id the sweep uses, and
/// the public half of its key. Read from the same names as the sweep (`APNS_KEY_ID`, ...), plus
/// `STANDIN_DB`, the stand-in's own SQLite file of received pushes and scripted answers, and
/// `STANDIN_KEY_ENVIRONMENTS`, the environments the key may send to (Apple lets a key be
/// restricted to one): a push to another answers 403 BadEnvironmentKeyInToken.
public struct StandInConfiguration: Sendable {
    public var keyID: String
    public var teamID: String
    public var bundleID: String
    /// PEM of the public key that must have signed the provider tokens.
    public var publicKeyPEM: String
    public var databasePath: String
    public var clock: Clock
    /// The environments the key may send to.
    public var keyEnvironments: [APNsEnvironment]

    public init(
        keyID: String, teamID: String, bundleID: String, publicKeyPEM: String, databasePath: String, clock: Clock = Clock(),
        keyEnvironments: [APNsEnvironment] = APNsEnvironment.allCases
    ) {
        self.keyID = keyID
        self.teamID = teamID
        self.bundleID = bundleID
        self.publicKeyPEM = publicKeyPEM
        self.databasePath = databasePath
        self.clock = clock
        self.keyEnvironments = keyEnvironments
    }

    /// Reads the settings (the environment over the `LIVEACTIVITY_CONFIG` file): the key comes from
    /// `STANDIN_PUBLIC_KEY_PATH`, or else the public half of `APNS_KEY` / `APNS_KEY_PATH`.
    public static func fromProcess() throws -> StandInConfiguration {
        let settings = try Settings.fromProcess()
        let publicKey: String
        if let path = settings.text("STANDIN_PUBLIC_KEY_PATH") {
            do { publicKey = try APNsKeyFile.read(path) } catch {
                throw ES256KeyError.unreadableFile(path: path, reason: error.description)
            }
        } else if let pem = settings.verbatim("APNS_KEY") {
            publicKey = try ES256Signer(pem: pem).publicKeyPEM()
        } else if let path = settings.text("APNS_KEY_PATH") {
            publicKey = try ES256Signer(path: path).publicKeyPEM()
        } else {
            throw ConfigurationError.missing(name: "STANDIN_PUBLIC_KEY_PATH or APNS_KEY_PATH")
        }
        let keyEnvironments = try settings.environments("STANDIN_KEY_ENVIRONMENTS") ?? APNsEnvironment.allCases
        return StandInConfiguration(
            keyID: try settings.required("APNS_KEY_ID"),
            teamID: try settings.required("APNS_TEAM_ID"),
            bundleID: try settings.required("APNS_BUNDLE_ID"),
            publicKeyPEM: publicKey,
            databasePath: settings.text("STANDIN_DB") ?? "./var/apns-standin.sqlite",
            clock: try Clock(settings: settings), keyEnvironments: keyEnvironments)
    }
}
