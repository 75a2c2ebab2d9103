import LiveActivityDomain

/// The scopes tests name most: an environment's wake pushes, and a whole environment's faults.
extension PushScope {
    public static let production = PushScope(environment: .production, kind: .wake)
    public static let sandbox = PushScope(environment: .sandbox, kind: .wake)
}

extension FaultScope {
    public static let production = FaultScope(environment: .production)
    public static let sandbox = FaultScope(environment: .sandbox)
}
