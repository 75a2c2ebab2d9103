import LiveActivityStore

/// The guard as the SQL engines write it.
extension RegisteredAtGuard {
    /// `registered_at` is still the value the sweep read.
    @inlinable public func sql<Value>() -> SQL<Value> { "registered_at = \(bind: read)" }

    /// The same, the value read from each run's input (`StatementShape`).
    @inlinable public static func sql<Input, Value>(
        reading guardOf: @escaping @Sendable (Input) -> RegisteredAtGuard
    ) -> InputSQL<Input, Value> {
        "registered_at = \(bind: { .integer(guardOf($0).read) })"
    }
}
