import SystemSupport

/// A value shared between threads behind a lock (the programs' `ConditionLock`). Unchecked
/// `Sendable`: tests share values that are not (a closure, a connection), each reached only
/// under the lock.
public final class LockedBox<Value>: @unchecked Sendable {
    private let lock: ConditionLock<Value>
    public init(_ value: Value) { lock = ConditionLock(value) }
    public func get() -> Value { lock.withLock { $0 } }
    public func set(_ newValue: Value) { lock.withLock { $0 = newValue } }
    public func update<T>(_ body: (inout Value) -> T) -> T { lock.withLock(body) }
}
