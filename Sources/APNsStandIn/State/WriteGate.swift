import Synchronization

/// Serializes the writers of one process: threads queue on a mutex instead of contending for
/// SQLite's lock through `busy_timeout`, whose handler sleeps and collapses throughput. A `Mutex`
/// guarding nothing but the turn (the locking rule in docs/ARCHITECTURE.md).
public final class WriteGate: Sendable {
    private let turn = Mutex(())

    public init() {}

    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        try turn.withLock { _ in try body() }
    }
}
