/// One environment's pushes of one kind: what due counts, the mass-deletion guard and "ever
/// delivered" are kept per (SPEC 5, "Per app, environment and push kind").
public struct PushScope: Hashable, Sendable, CustomStringConvertible {
    public var environment: APNsEnvironment
    public var kind: PushKind

    public init(environment: APNsEnvironment, kind: PushKind) {
        self.environment = environment
        self.kind = kind
    }

    /// The fault scope of this kind alone.
    public var faultScope: FaultScope { FaultScope(environment: environment, kind: kind) }

    /// `sandbox` for wakes (as lines always named them), `sandbox widgets` for another kind.
    public var description: String { kind == .wake ? environment.rawValue : "\(environment.rawValue) \(kind.name)" }

    /// By environment, then the kinds' order.
    public static func ordered(_ left: PushScope, _ right: PushScope) -> Bool {
        (left.environment.rawValue, left.kind.name) < (right.environment.rawValue, right.kind.name)
    }
}
