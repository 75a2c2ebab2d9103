import Dispatch
import Glibc
import LiveActivityDomain
import SystemSupport

/// The turn to use the responder's writing connection, handed from thread to thread.
///
/// A short lock guards only the queue of writes and a `busy` flag; whoever
/// holds the turn works outside any lock, and every other thread sleeps on its own semaphore until
/// it is answered or handed the turn. Why: with the connection itself behind a lock, 63 workers
/// spun and slept on that lock while one committed (16% of the responder's samples in
/// `_lockSlow` and priority-inheritance futex calls); here a waiter costs one sleep and one wake.
///
/// Only writes take it: the reads of health, metrics and the status page have a connection of
/// their own (`RegistrationWriter.read`), so a flood of them never holds a registration back.
final class CommitTurn<Write: TurnWaiting>: @unchecked Sendable {
    /// A thread waiting for the turn with no write of its own (`waitAsHolder`).
    private final class Holder: TurnWaiting {
        let wake = DispatchSemaphore(value: 0)
    }

    // Guarded by `lock` (a plain pthread mutex: no spinning, no priority inheritance).
    private let lock = ThreadCondition()
    private var writes: [Write] = []
    private var holders: [Holder] = []
    private var busy = false

    /// Queues `write`; returns `true` when the caller holds the turn at once. Otherwise the caller
    /// waits on its `wake`, and finds either its answer or the turn when it wakes.
    func queue(_ write: Write) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        writes.append(write)
        return take()
    }

    /// Waits for the turn without a write to commit: the writes queued meanwhile wait behind it
    /// and form one batch when it hands the turn over (how tests make a batch of a known size).
    func waitAsHolder() {
        lock.lock()
        if take() {
            lock.unlock()
            return
        }
        let holder = Holder()
        holders.append(holder)
        lock.unlock()
        holder.wake.wait()
    }

    /// Every write queued so far, for the holder of the turn to commit.
    func takeWrites() -> [Write] {
        lock.lock()
        defer { lock.unlock() }
        let batch = writes
        writes.removeAll(keepingCapacity: true)
        return batch
    }

    /// Writes queued and not yet taken by the holder of the turn (tests wait on it).
    var queuedCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return writes.count
    }

    /// Gives up the turn: to a waiting holder, else to the first write queued meanwhile, else to
    /// nobody. Returns the waiter to wake with the turn; the caller signals it (outside the lock).
    func handOver() -> (any TurnWaiting)? {
        lock.lock()
        defer { lock.unlock() }
        if !holders.isEmpty { return holders.removeFirst() }
        if let next = writes.first { return next }
        busy = false
        return nil
    }

    /// Takes the turn if nobody holds it (the caller holds `lock`).
    private func take() -> Bool {
        guard !busy else { return false }
        busy = true
        return true
    }
}

/// A thread waiting for the turn: it sleeps on its own semaphore until it is answered or handed
/// the turn, so a hand-over wakes exactly one thread.
protocol TurnWaiting: AnyObject {
    var wake: DispatchSemaphore { get }
}
