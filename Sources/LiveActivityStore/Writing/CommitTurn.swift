import LiveActivityDomain
import SystemSupport

/// The turn to use the responder's writing connection, handed from thread to thread.
///
/// A short lock guards only the queue of writes and a `busy` flag; whoever
/// holds the turn works outside any lock, and every other thread sleeps on its own condition until
/// it is answered or handed the turn (`TurnWaiting`). Why: with the connection itself behind a
/// lock, 63 workers spun and slept on that lock while one committed (16% of the responder's
/// samples in `_lockSlow` and priority-inheritance futex calls); here a waiter costs one sleep and
/// one wake, and the lock is a plain pthread mutex (no spinning, no priority inheritance).
///
/// Only writes take it: the reads of health, metrics and the status page have a connection of
/// their own (`RegistrationWriter.read`), so a flood of them never holds a registration back.
final class CommitTurn<Write: TurnWaiting>: Sendable {
    /// The writes queued, the holders waiting (`CommitTurn+Testing`) and whether the turn is held.
    struct Queue {
        var writes: [Write] = []
        var holders: [TurnHolder] = []
        var busy = false

        /// Takes the turn if nobody holds it.
        mutating func take() -> Bool {
            guard !busy else { return false }
            busy = true
            return true
        }
    }

    let queue = LockedValue(Queue())

    /// Queues `write`; returns `true` when the caller holds the turn at once. Otherwise the caller
    /// waits to be woken, and finds either its answer or the turn when it wakes.
    func queue(_ write: Write) -> Bool {
        queue.withLock { queue in
            queue.writes.append(write)
            return queue.take()
        }
    }

    /// Every write queued so far, for the holder of the turn to commit.
    func takeWrites() -> [Write] {
        queue.withLock { queue in
            let batch = queue.writes
            queue.writes.removeAll(keepingCapacity: true)
            return batch
        }
    }

    /// Gives up the turn: to a waiting holder, else to the first write queued meanwhile, else to
    /// nobody. Returns the waiter to wake with the turn; the caller wakes it (outside the lock).
    func handOver() -> (any TurnWaiting)? {
        queue.withLock { queue -> (any TurnWaiting)? in
            if !queue.holders.isEmpty { return queue.holders.removeFirst() }
            if let next = queue.writes.first { return next }
            queue.busy = false
            return nil
        }
    }
}

/// A thread waiting for the turn: it sleeps on a condition of its own until it is answered or
/// handed the turn, so a hand-over wakes exactly one thread.
protocol TurnWaiting: AnyObject, Sendable {
    /// Wakes the waiting thread (it finds its answer or the turn).
    func wake()
}
