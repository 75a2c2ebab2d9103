import SystemSupport

/// Threads a test starts and then waits for, each wait bounded: the programs' own `SystemThread`
/// and `ConditionLock`, so the tests use one concurrency family with the code they test, and a
/// client that blocks on a socket for seconds holds a thread of its own rather than one of
/// Dispatch's or Swift's shared pools (which the test runner's own tests need).
public final class TestThreads: Sendable {
    /// The threads started and not yet ended.
    private let running = ConditionLock(0)

    public init() {}

    /// Starts `body` on a thread of its own.
    public func start(_ body: @escaping @Sendable () -> Void) {
        running.withLock { $0 += 1 }
        let started = SystemThread.start(name: "test-thread") { [running] in
            body()
            running.withLock { $0 -= 1 }
            running.broadcast()
        }
        precondition(started, "the system started no thread for a test")
    }

    /// Waits up to `timeout` until every thread started has ended; whether they all did.
    public func wait(timeout: Duration) -> Bool {
        running.wait(until: { $0 == 0 }, timeout: timeout)
    }

    /// Runs `body(0)` to `body(count - 1)` at once, each on a thread of its own, and waits up to
    /// `timeout` for all of them; whether they all ended.
    public static func run(_ count: Int, timeout: Duration = .seconds(300), _ body: @escaping @Sendable (Int) -> Void) -> Bool {
        let threads = TestThreads()
        for index in 0..<count { threads.start { body(index) } }
        return threads.wait(timeout: timeout)
    }
}

/// A signal one thread gives and another waits for, the wait bounded (for a test's hand-offs).
public final class TestSignal: Sendable {
    private let given = ConditionLock(0)

    public init() {}

    /// Gives the signal once more.
    public func signal() {
        given.withLock { $0 += 1 }
        given.broadcast()
    }

    /// Waits up to `timeout` for a signal not yet taken, and takes it; whether one came.
    public func wait(timeout: Duration = .seconds(120)) -> Bool {
        guard given.wait(until: { $0 > 0 }, timeout: timeout) else { return false }
        return given.withLock { count in
            guard count > 0 else { return false }
            count -= 1
            return true
        }
    }
}
