import Foundation
import SystemSupport

/// Starts long-running servers from one thread that lives as long as the test process. A server
/// started through `setpriv --pdeathsig` (scripts/postgres-cluster) is killed by the kernel when
/// the *thread* that started it ends - which ties it to the test process only if that thread
/// never ends before the process does; the threads tests run on come and go.
final class ServerSpawner: Sendable {
    static let shared = ServerSpawner()

    private let queue = ConditionLock<[@Sendable () -> Void]>([])

    private init() {
        let started = SystemThread.start(name: "server-spawner") { [queue] in
            while true {
                let next = queue.withLock(when: { !$0.isEmpty }, do: { $0.removeFirst() })
                next()
            }
        }
        precondition(started, "the system started no thread for the server spawner")
    }

    /// Runs `start` (which spawns the process) on the spawner's thread and returns what it made.
    func run<T: Sendable>(_ start: @escaping @Sendable () throws -> T) throws -> T {
        let outcome = ConditionLock<Result<T, any Error>?>(nil)
        queue.withLock {
            $0.append {
                let result = Result(catching: start)
                outcome.withLock { $0 = result }
                outcome.broadcast()
            }
        }
        queue.broadcast()
        // Spawning takes milliseconds; the bound guards against a spawner that is stuck.
        guard outcome.wait(until: { $0 != nil }, timeout: .seconds(120)), let result = outcome.withLock({ $0 }) else {
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
