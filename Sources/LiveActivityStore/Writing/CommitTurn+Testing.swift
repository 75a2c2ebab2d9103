import SystemSupport

/// The turn's test hooks, apart from the type the responder runs: tests reach them through
/// `@testable import`, and nothing on a write's path calls them.
extension CommitTurn {
    /// Waits for the turn without a write to commit: the writes queued meanwhile wait behind it
    /// and form one batch when it hands the turn over (how tests make a batch of a known size).
    func waitAsHolder() {
        let holder = TurnHolder()
        let now = queue.withLock { queue in
            if queue.take() { return true }
            queue.holders.append(holder)
            return false
        }
        if !now { holder.waitForWake() }
    }

    /// Writes queued and not yet taken by the holder of the turn (tests wait on it).
    var queuedCount: Int {
        queue.withLock { $0.writes.count }
    }
}

/// A thread waiting for the turn with no write of its own (`CommitTurn.waitAsHolder`).
final class TurnHolder: TurnWaiting {
    private let woken = ConditionLock(false)

    func wake() {
        woken.withLock { $0 = true }
        woken.signal()
    }

    func waitForWake() {
        woken.wait(until: { $0 })
    }
}
