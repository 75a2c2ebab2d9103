/// One app's pushes of one kind to one environment: what due counts, the mass-deletion guard and
/// "ever delivered" are kept per (SPEC 5, "Per app, environment and push kind").
public struct PushScope: Hashable, Sendable, CustomStringConvertible {
    public var environment: APNsEnvironment
    public var kind: PushKind
    public var app: AppName

    public init(environment: APNsEnvironment, kind: PushKind, app: AppName = .defaultApp) {
        self.environment = environment
        self.kind = kind
        self.app = app
    }

    /// The fault scope of this kind alone.
    public var faultScope: FaultScope { FaultScope(environment: environment, kind: kind, app: app) }

    /// `sandbox` for wakes (as lines always named them), `sandbox widgets` for another kind,
    /// after the app's name for an app other than the default one.
    public var description: String {
        app.prefix(" ") + (kind == .wake ? environment.rawValue : "\(environment.rawValue) \(kind.name)")
    }

    /// By app, environment, then the kinds' order.
    public static func ordered(_ left: PushScope, _ right: PushScope) -> Bool {
        (left.app, left.environment.rawValue, left.kind.name) < (right.app, right.environment.rawValue, right.kind.name)
    }
}
