import LiveActivityStore

/// The guard as the SQL engines write it.
extension RegisteredAtGuard {
    /// `registered_at` is still the value the sweep read, that value read from each run's input
    /// (`StatementShape`: the outcome update, run per pushed row).
    @inlinable public static func sql<Input, Value>(
        reading guardOf: @escaping @Sendable (Input) -> RegisteredAtGuard
    ) -> InputSQL<Input, Value> {
        "registered_at = \(bind: { .integer(guardOf($0).read) })"
    }
}
