import Foundation

/// Starts long-running servers from one thread that lives as long as the test process. A server
/// started through `setpriv --pdeathsig` (scripts/postgres-cluster) is killed by the kernel when
/// the *thread* that started it ends - which ties it to the test process only if that thread
/// never ends before the process does; the threads tests run on come and go.
final class ServerSpawner: @unchecked Sendable {
    static let shared = ServerSpawner()

    private let condition = NSCondition()
    private var queue: [() -> Void] = []

    private init() {
        let thread = Thread { [self] in
            while true {
                condition.lock()
                while queue.isEmpty { condition.wait() }
                let next = queue.removeFirst()
                condition.unlock()
                next()
            }
        }
        thread.name = "TestSupport.ServerSpawner"
        thread.start()
    }

    /// Runs `start` (which spawns the process) on the spawner's thread and returns what it made.
    func run<T>(_ start: @escaping () throws -> T) throws -> T {
        let outcome = LockedBox<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        condition.withLock {
            queue.append {
                outcome.set(Result(catching: start))
                done.signal()
            }
            condition.signal()
        }
        // Spawning takes milliseconds; the bound guards against a spawner that is stuck.
        guard done.wait(timeout: .now() + 120) == .success, let result = outcome.get() else {
            throw ClusterError("the server spawner did not answer within 120 s")
        }
        return try result.get()
    }
}

/// A failure of a test server's set-up, with what the server or its tool said.
public struct ClusterError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
