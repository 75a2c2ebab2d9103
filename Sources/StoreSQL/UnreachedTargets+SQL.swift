import LiveActivityStore

/// The unreached targets as the SQL engines select them.
extension UnreachedTargets {
    /// The predicate over `push_targets`; a scope of every kind names none.
    public func sql<Value>() -> SQL<Value> {
        let kind: SQL<Value> = scope.kind.map { " AND push_kind = \(bind: $0.name)" } ?? ""
        return """
            next_push_at <= \(bind: cutoff) AND environment = \(bind: scope.environment.rawValue) \
            AND registered_at <= \(bind: start) AND (last_push_at IS NULL OR last_push_at < \(bind: start))\(kind) \
            AND app = \(bind: scope.app.rawValue)
            """
    }
}
