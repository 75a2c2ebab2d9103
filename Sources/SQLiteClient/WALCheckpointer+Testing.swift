/// The checkpointer's test hooks, apart from the type the responder runs: tests reach them
/// through `@testable import`; they read the state the thread keeps anyway.
extension WALCheckpointer {
    /// Runs `body` while the thread starts no checkpoint (one in progress ends first), as a busy
    /// disk would hold it: tests see what the commits alone do.
    package func holdingCheckpoints<T>(_ body: () throws -> T) rethrows -> T {
        shared.withLock { $0.held = true }
        shared.wait(until: { !$0.checkpointing })
        defer {
            shared.withLock { $0.held = false }
            shared.broadcast()
        }
        return try body()
    }

    /// Checkpoints that ran to their end so far.
    package var completedCheckpoints: Int {
        shared.withLock { $0.completed }
    }
}
