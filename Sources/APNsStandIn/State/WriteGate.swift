import Foundation

/// Serializes the writers of one process: threads queue on a mutex instead of contending for
/// SQLite's lock through `busy_timeout`, whose handler sleeps and collapses throughput. An
/// `NSLock`: a section that guards no value (the locking rule in docs/ARCHITECTURE.md).
public final class WriteGate: Sendable {
    private let lock = NSLock()

    public init() {}

    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
