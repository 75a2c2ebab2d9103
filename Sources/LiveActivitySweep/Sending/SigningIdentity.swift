import LiveActivityDomain

/// Who signs a push (SPEC 6 "Several apps"): the team and key of its provider token. APNs binds a
/// connection to the team and key of its first push (another team's token on it: 403
/// InvalidProviderToken; another key: UnrelatedKeyIdInToken), so the sender keeps one connection
/// pool per identity and environment, and the sweep one provider token per identity, shared by
/// every app that key signs for.
public struct SigningIdentity: Hashable, Sendable, CustomStringConvertible {
    public let teamID: String
    public let keyID: String

    public init(teamID: String, keyID: String) {
        self.teamID = teamID
        self.keyID = keyID
    }

    public var description: String { "team \(teamID), key \(keyID)" }
}

/// How one app's pushes go out: its bundle id (their topic, each kind adding its suffix) and the
/// identity that signs them.
public struct AppRoute: Hashable, Sendable {
    public let bundleID: String
    public let identity: SigningIdentity

    public init(bundleID: String, identity: SigningIdentity) {
        self.bundleID = bundleID
        self.identity = identity
    }
}
