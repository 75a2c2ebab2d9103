import LiveActivityStore

/// The guard as the SQL engines write it.
extension RegisteredAtGuard {
    /// `registered_at` is still the value the sweep read.
    @inlinable public func sql<Value>() -> SQL<Value> { "registered_at = \(bind: read)" }
}
