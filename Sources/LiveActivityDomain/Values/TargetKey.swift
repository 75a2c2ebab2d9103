/// Which push target (SPEC 1, 4): the registration it belongs to, named by its app and the device
/// token the app registered, and its kind. A registration owns one wake target and at most one
/// widgets target, so the triple names a target whatever token the target itself is pushed to (a
/// widgets target's is the widget extension's own). The same token under two apps is two
/// registrations (SPEC 3).
public struct TargetKey: Hashable, Sendable, CustomStringConvertible {
    /// The registration's device token (its wake target's token).
    public var registration: PushToken
    public var kind: PushKind
    /// The app the registration belongs to.
    public var app: AppName

    public init(registration: PushToken, kind: PushKind, app: AppName = .defaultApp) {
        self.registration = registration
        self.kind = kind
        self.app = app
    }

    public init(_ registration: RegistrationKey, kind: PushKind) {
        self.init(registration: registration.token, kind: kind, app: registration.app)
    }

    /// The wake target of the registration of `token` in `app`.
    public static func wake(_ token: PushToken, app: AppName = .defaultApp) -> TargetKey {
        TargetKey(registration: token, kind: .wake, app: app)
    }

    /// The registration the target belongs to.
    public var registrationKey: RegistrationKey { RegistrationKey(app: app, token: registration) }

    /// `1a2b3c4d…/widgets`: as a log line may show it (the registration's token by its first 8
    /// characters), after `other-app:` for an app other than the default one.
    public var description: String {
        app.prefix(":") + "\(registration.logPrefix)/\(kind.name)"
    }
}

extension TargetKey: Comparable {
    /// The order of the due index after the due time: the registration's token, the kind's name,
    /// then the app's name (so a one-app deployment keeps its order).
    public static func < (left: TargetKey, right: TargetKey) -> Bool {
        // Field by field, as a tuple compares, without building the tuples: the SQLite outcome
        // writer sorts every batch by it.
        if left.registration.hex != right.registration.hex { return left.registration.hex < right.registration.hex }
        if left.kind.name != right.kind.name { return left.kind.name < right.kind.name }
        return left.app.rawValue < right.app.rawValue
    }
}
