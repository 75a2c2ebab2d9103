/// Which registration (SPEC 3, 4): one per app and device token, so the same token registered for
/// two apps is two registrations, each with its own targets, caps and history.
public struct RegistrationKey: Hashable, Sendable, CustomStringConvertible {
    public var app: AppName
    /// The device token the app registered (its wake target's token).
    public var token: PushToken

    public init(app: AppName = .defaultApp, token: PushToken) {
        self.app = app
        self.token = token
    }

    /// `1a2b3c4d…`, after `other-app:` for an app other than the default one: as a log line shows it.
    public var description: String { app.prefix(":") + token.logPrefix }
}
