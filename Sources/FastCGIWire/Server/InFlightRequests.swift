import Synchronization

/// Counts the requests being served, and the workers accepting a connection (whose request
/// is then counted by the same unit), so a stopping server exits only once the socket's queue
/// is drained and between requests; and closes the door so no worker starts either once the
/// exit is decided.
///
/// Atomics, not a lock: every request passes here twice from 64 threads, and a contended Swift
/// `Mutex` spins and then sleeps on a priority-inheritance futex (4% of the responder's samples).
final class InFlightRequests: Sendable {
    private let stopping = Atomic<Bool>(false)
    /// Requests in flight and workers accepting, or `closed` once the door is shut (only ever from 0).
    private let requests = Atomic<Int>(0)
    private static let closed = -1
    private let runningWorkers = Atomic<Int>(0)

    var isStopping: Bool { stopping.load(ordering: .acquiring) }

    func beginStopping() { stopping.store(true, ordering: .releasing) }

    /// `false` once the process is exiting: the caller may neither accept nor call its responder.
    func begin() -> Bool {
        var current = requests.load(ordering: .relaxed)
        while current != Self.closed {
            let (exchanged, found) = requests.compareExchange(
                expected: current, desired: current + 1, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = found
        }
        return false
    }

    func end() { requests.subtract(1, ordering: .releasing) }

    func workerStarted() { runningWorkers.add(1, ordering: .relaxed) }

    /// The number of workers still running after this one leaves.
    func workerEnded() -> Int {
        runningWorkers.subtract(1, ordering: .acquiringAndReleasing).newValue
    }

    /// Closes the door when nothing is in flight; `true` when closed.
    func closeIfIdle() -> Bool {
        let (exchanged, found) = requests.compareExchange(
            expected: 0, desired: Self.closed, ordering: .acquiringAndReleasing)
        return exchanged || found == Self.closed
    }
}
