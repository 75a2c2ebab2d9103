#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value, the pthread mutex that guards it and a condition variable to wait on it (swift-nio's
/// `ConditionLock`, with the value inside as in its `NIOLockedValueBox`): the value is reached
/// only through `withLock`, and a thread waits for another to change it with `wait(until:)` or `withLock(when:do:)`.
/// The one lock and condition of the programs (the locking rule in docs/ARCHITECTURE.md); a
/// pthread mutex, no spinning and no priority inheritance, so a hot lock costs a sleep and a wake.
public final class ConditionLock<Value> {
    // One allocation, never moved: pthread objects must keep their address.
    private let storage: UnsafeMutableRawPointer
    private var mutex: UnsafeMutablePointer<pthread_mutex_t> { storage.assumingMemoryBound(to: pthread_mutex_t.self) }
    private var condition: UnsafeMutablePointer<pthread_cond_t> {
        (storage + Self.conditionOffset).assumingMemoryBound(to: pthread_cond_t.self)
    }
    private static var conditionOffset: Int {
        let alignment = MemoryLayout<pthread_cond_t>.alignment
        return (MemoryLayout<pthread_mutex_t>.size + alignment - 1) / alignment * alignment
    }
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        storage = UnsafeMutableRawPointer.allocate(
            byteCount: Self.conditionOffset + MemoryLayout<pthread_cond_t>.size,
            alignment: max(MemoryLayout<pthread_mutex_t>.alignment, MemoryLayout<pthread_cond_t>.alignment))
        storage.bindMemory(to: pthread_mutex_t.self, capacity: 1)
        (storage + Self.conditionOffset).bindMemory(to: pthread_cond_t.self, capacity: 1)
        pthread_mutex_init(mutex, nil)
        // Deadlines are read on the monotonic clock, which a step of the wall clock does not move.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        #if canImport(Glibc)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        storage.deallocate()
    }

    /// Runs `body` on the value, holding the lock.
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// Waits, the lock released, until `ready` holds of the value, then runs `body` on it holding
    /// the lock: for a wait whose end another thread owes (a thread's end, a queue's room).
    public func withLock<T>(when ready: (Value) -> Bool, do body: (inout Value) throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !ready(value) { pthread_cond_wait(condition, mutex) }
        return try body(&value)
    }

    /// Waits, the lock released, until `ready` holds of the value.
    public func wait(until ready: (Value) -> Bool) {
        withLock(when: ready, do: { _ in })
    }

    /// Waits at most `timeout` (a deadline on the monotonic clock, kept across wake-ups) until
    /// `ready` holds of the value; whether it did (false: the deadline passed first).
    public func wait(until ready: (Value) -> Bool, timeout: Duration) -> Bool {
        let deadline = Self.deadline(after: timeout)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !ready(value) {
            var until = deadline
            if pthread_cond_timedwait(condition, mutex, &until) == ETIMEDOUT { return ready(value) }
        }
        return true
    }

    /// Wakes one thread waiting in `wait` or `withLock(when:do:)` to look at the value again.
    public func signal() { pthread_cond_signal(condition) }

    /// Wakes every thread waiting in `wait` or `withLock(when:do:)` to look at the value again.
    public func broadcast() { pthread_cond_broadcast(condition) }

    /// The monotonic clock's time `timeout` from now, as `pthread_cond_timedwait` takes it.
    private static func deadline(after timeout: Duration) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let (seconds, attoseconds) = max(timeout, .zero).components
        let nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        return timespec(
            tv_sec: now.tv_sec + Int(seconds) + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
    }
}

// Unchecked: its pthread storage is a C handle the compiler cannot see guarded; the value is
// reached only under the mutex, so the box may cross threads whenever its value may.
extension ConditionLock: @unchecked Sendable where Value: Sendable {}
