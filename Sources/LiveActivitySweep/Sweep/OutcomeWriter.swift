import Glibc
import LiveActivityDomain
import LiveActivityStore
import SystemSupport

/// Writes the sweep's outcome batches on a thread of its own, over a connection of its own, so
/// pushes keep flowing while a batch is committed: at 100,000 registrations the writes, done
/// between two polls of the HTTP/2 client, had stalled it for a quarter of the sweep.
///
/// Batches are applied in the order submitted, each in one transaction (`OutcomeBatch`); a
/// killed sweep loses at most the batches not yet committed, whose pushes are simply due again.
/// At most `maximumQueued` batches wait: when the writer falls behind, `submit` waits for it, so
/// the sweep's memory stays flat (unbounded, a sweep of 100,000 at loopback had 28 batches
/// queued), and the sweep takes no longer than it would anyway: it ends once all is written.
final class OutcomeWriter: @unchecked Sendable {
    /// One batch committing while the next fills is the overlap that matters; a second waiting
    /// absorbs a slow commit. A batch is `Sweep.batchSize` answers.
    static let maximumQueued = 2

    // State shared with the thread, guarded by `condition`.
    private let condition = ThreadCondition()
    private var queue: [OutcomeBatch] = []
    private var closing = false
    private var done = false
    private var deleted: [AppKind: Int] = [:]
    private var failure: (any Error)?

    /// Starts the thread, which is the only user of `statements` (the engine's outcome writer's
    /// connection, to a database the sweep already migrated, under the sweep's lease where the
    /// database is shared) from then on.
    init(statements: any SweepStatements, policy: IntervalPolicy) throws {
        let owned = ThreadOwned(statements)
        guard SystemThread.start(name: "sweep-outcome-writer", { [self] in run(owned.value, policy: policy) })
        else { throw OutcomeWriterStartError() }
    }

    /// Queues `batch` (the writes and the answered pushes they come from: one transaction for
    /// both), first waiting while `maximumQueued` batches wait; throws the error of an earlier
    /// batch, which stops the sweep.
    func submit(_ batch: OutcomeBatch) throws {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= Self.maximumQueued && failure == nil { condition.wait() }
        if let failure { throw failure }
        queue.append(batch)
        condition.broadcast()
    }

    /// Waits until every queued batch is written and the thread has ended; returns the targets
    /// deleted per app and kind, or throws the first error.
    func finish() throws -> [AppKind: Int] {
        condition.lock()
        defer { condition.unlock() }
        closing = true
        condition.broadcast()
        while !done { condition.wait() }
        if let failure { throw failure }
        return deleted
    }

    private func run(_ statements: any SweepStatements, policy: IntervalPolicy) {
        while true {
            condition.lock()
            while queue.isEmpty && !closing { condition.wait() }
            if queue.isEmpty || failure != nil {
                // Closed before `finish` returns: its file or socket is released when the run ends.
                statements.close()
                done = true
                condition.broadcast()
                condition.unlock()
                return
            }
            let batch = queue.removeFirst()
            condition.broadcast()  // a submit waiting for room
            condition.unlock()

            let result = Result { try batch.apply(to: statements, policy: policy) }
            condition.lock()
            switch result {
            case .success(let counts): deleted.merge(counts, uniquingKeysWith: +)
            case .failure(let error): failure = error
            }
            condition.unlock()
        }
    }
}

/// The system started no thread for the outcome writer: the sweep stops before any push.
struct OutcomeWriterStartError: Error, CustomStringConvertible {
    var description: String { "the system started no thread for the outcome writer" }
}
