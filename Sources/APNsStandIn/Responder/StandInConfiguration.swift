import APNsJWT
import Foundation
import LiveActivityCore

/// What the stand-in checks against: the same key id, team id and bundle id the sweep uses, and
/// the public half of its key. Read from the same names as the sweep (`APNS_KEY_ID`, ...), plus
/// `STANDIN_DB`, the stand-in's own SQLite file of received pushes and scripted answers.
public struct StandInConfiguration: Sendable {
    public var keyID: String
    public var teamID: String
    public var bundleID: String
    /// PEM of the public key that must have signed the provider tokens.
    public var publicKeyPEM: String
    public var databasePath: String
    public var clock: Clock

    public init(
        keyID: String, teamID: String, bundleID: String, publicKeyPEM: String, databasePath: String, clock: Clock = Clock()
    ) {
        self.keyID = keyID
        self.teamID = teamID
        self.bundleID = bundleID
        self.publicKeyPEM = publicKeyPEM
        self.databasePath = databasePath
        self.clock = clock
    }

    /// Reads the environment (and the `LIVEACTIVITY_CONFIG` file): the key comes from
    /// `STANDIN_PUBLIC_KEY_PATH`, or else the public half of `APNS_KEY_PATH` / `APNS_KEY`.
    public static func fromProcess() throws -> StandInConfiguration {
        let environment = ProcessInfo.processInfo.environment
        let shared = try Configuration(environment: environment)
        func required(_ value: String?, _ name: String) throws(ConfigurationError) -> String {
            guard let value, !value.isEmpty else { throw .missing(name: name) }
            return value
        }
        let publicKey: String
        if let path = environment["STANDIN_PUBLIC_KEY_PATH"], !path.isEmpty {
            publicKey = try String(contentsOfFile: path, encoding: .utf8)
        } else if let pem = shared.apnsKeyPEM {
            publicKey = try ES256Signer(pem: pem).publicKeyPEM()
        } else if let path = shared.apnsKeyPath {
            publicKey = try ES256Signer(path: path).publicKeyPEM()
        } else {
            throw ConfigurationError.missing(name: "STANDIN_PUBLIC_KEY_PATH or APNS_KEY_PATH")
        }
        return StandInConfiguration(
            keyID: try required(shared.apnsKeyID, "APNS_KEY_ID"),
            teamID: try required(shared.apnsTeamID, "APNS_TEAM_ID"),
            bundleID: try required(shared.apnsBundleID, "APNS_BUNDLE_ID"),
            publicKeyPEM: publicKey,
            databasePath: environment["STANDIN_DB"].flatMap { $0.isEmpty ? nil : $0 } ?? "./var/apns-standin.sqlite",
            clock: shared.clock)
    }
}
