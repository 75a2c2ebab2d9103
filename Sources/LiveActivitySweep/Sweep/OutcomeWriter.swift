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
final class OutcomeWriter: Sendable {
    /// One batch committing while the next fills is the overlap that matters; a second waiting
    /// absorbs a slow commit. A batch is `Sweep.batchSize` answers.
    static let maximumQueued = 2

    /// What the sweep and the thread share.
    private struct Shared {
        var queue: [OutcomeBatch] = []
        var closing = false
        var done = false
        var deleted: [AppKind: Int] = [:]
        var failure: (any Error)?
    }

    private let shared = ConditionLock(Shared())

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
        try shared.withLock(
            when: { $0.queue.count < Self.maximumQueued || $0.failure != nil },
            do: { shared in
                if let failure = shared.failure { throw failure }
                shared.queue.append(batch)
            })
        shared.broadcast()
    }

    /// Waits until every queued batch is written and the thread has ended; returns the targets
    /// deleted per app and kind, or throws the first error.
    func finish() throws -> [AppKind: Int] {
        shared.withLock { $0.closing = true }
        shared.broadcast()
        return try shared.withLock(
            when: \.done,
            do: { shared in
                if let failure = shared.failure { throw failure }
                return shared.deleted
            })
    }

    private func run(_ statements: any SweepStatements, policy: IntervalPolicy) {
        while true {
            let next = shared.withLock(
                when: { !$0.queue.isEmpty || $0.closing },
                do: { shared -> OutcomeBatch? in
                    shared.queue.isEmpty || shared.failure != nil ? nil : shared.queue.removeFirst()
                })
            guard let batch = next else {
                // Closed before `finish` returns: its file or socket is released when the run ends.
                statements.close()
                shared.withLock { $0.done = true }
                shared.broadcast()
                return
            }
            shared.broadcast()  // a submit waiting for room

            let result = Result { try batch.apply(to: statements, policy: policy) }
            shared.withLock { shared in
                switch result {
                case .success(let counts): shared.deleted.merge(counts, uniquingKeysWith: +)
                case .failure(let error): shared.failure = error
                }
            }
        }
    }
}

/// The system started no thread for the outcome writer: the sweep stops before any push.
struct OutcomeWriterStartError: Error, CustomStringConvertible {
    var description: String { "the system started no thread for the outcome writer" }
}
