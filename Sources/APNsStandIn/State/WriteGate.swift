import SystemSupport

/// Serializes the writers of one process: threads queue on a mutex instead of contending for
/// SQLite's lock through `busy_timeout`, whose handler sleeps and collapses throughput. A
/// `LockedValue` guarding nothing: a section, not a value (the locking rule in docs/ARCHITECTURE.md).
public final class WriteGate: Sendable {
    private let lock = LockedValue(())

    public init() {}

    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        try lock.withLock { _ in try body() }
    }
}
