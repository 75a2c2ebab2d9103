/// What a fault stops (SPEC 5, "Faults are scoped"): an environment's pushes of every kind, or of
/// one kind alone where the answer is about what differs between kinds (the topic, the push type,
/// the headers and payload of the kind: `APNsReason.scope`), so a wrong widgets topic stops
/// widgets pushes and wakes go on.
public struct FaultScope: Hashable, Sendable, CustomStringConvertible {
    public var environment: APNsEnvironment
    /// nil: every kind.
    public var kind: PushKind?

    public init(environment: APNsEnvironment, kind: PushKind? = nil) {
        self.environment = environment
        self.kind = kind
    }

    /// Whether a push of `kind` to `environment` is in the scope.
    public func covers(_ environment: APNsEnvironment, _ kind: PushKind) -> Bool {
        self.environment == environment && (self.kind == nil || self.kind == kind)
    }

    /// `sandbox`, or `sandbox widgets` for one kind: as the operator's line names it.
    public var description: String { kind.map { "\(environment.rawValue) \($0.name)" } ?? environment.rawValue }

    /// The order faults are reported in: by environment, the whole environment first.
    public static func ordered(_ left: FaultScope, _ right: FaultScope) -> Bool {
        (left.environment.rawValue, left.kind?.name ?? "") < (right.environment.rawValue, right.kind?.name ?? "")
    }
}
