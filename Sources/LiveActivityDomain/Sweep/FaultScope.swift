/// What a fault stops (SPEC 5, "Faults are scoped"): an app's pushes to an environment, of every
/// kind, or of one kind alone where the answer is about what differs between kinds (the topic,
/// the push type, the headers and payload of the kind: `APNsReason.scope`), so a wrong widgets
/// topic stops widgets pushes and wakes go on, and a wrong bundle id of one app stops that app
/// alone (SPEC 6).
public struct FaultScope: Hashable, Sendable, CustomStringConvertible {
    public var environment: APNsEnvironment
    /// nil: every kind.
    public var kind: PushKind?
    public var app: AppName

    public init(environment: APNsEnvironment, kind: PushKind? = nil, app: AppName = .defaultApp) {
        self.environment = environment
        self.kind = kind
        self.app = app
    }

    /// Whether a push of `kind` to `environment` for `app` is in the scope.
    public func covers(_ app: AppName, _ environment: APNsEnvironment, _ kind: PushKind) -> Bool {
        self.app == app && self.environment == environment && (self.kind == nil || self.kind == kind)
    }

    /// The whole environment of the scope's app: every kind.
    public var wholeEnvironment: FaultScope { FaultScope(environment: environment, app: app) }

    /// `sandbox`, or `sandbox widgets` for one kind, after the app's name for an app other than
    /// the default one (`other-app sandbox`): as the operator's line names it.
    public var description: String {
        app.prefix(" ") + (kind.map { "\(environment.rawValue) \($0.name)" } ?? environment.rawValue)
    }

    /// The order faults are reported in: by app, then environment, the whole environment first.
    public static func ordered(_ left: FaultScope, _ right: FaultScope) -> Bool {
        (left.app, left.environment.rawValue, left.kind?.name ?? "")
            < (right.app, right.environment.rawValue, right.kind?.name ?? "")
    }
}
