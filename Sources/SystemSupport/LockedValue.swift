/// A value shared between threads and the lock that guards it, for state no thread waits on
/// (swift-nio's `NIOLockedValueBox`): `withLock { value in ... }` is the only way to it.
/// A `ConditionLock` whose condition variable is never used.
public struct LockedValue<Value> {
    private let lock: ConditionLock<Value>

    public init(_ value: Value) { lock = ConditionLock(value) }

    /// Runs `body` on the value, holding the lock.
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try lock.withLock(body)
    }
}

extension LockedValue: Sendable where Value: Sendable {}
