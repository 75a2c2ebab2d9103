import Synchronization

/// Counts the requests being served so a stopping server exits only between requests, and
/// closes the door so no worker starts one once the exit is decided.
final class InFlightRequests: Sendable {
    private struct State {
        var stopping = false
        var closed = false
        var inFlight = 0
        var runningWorkers = 0
    }
    private let state = Mutex(State())

    var isStopping: Bool { state.withLock { $0.stopping } }

    func beginStopping() { state.withLock { $0.stopping = true } }

    /// `false` once the process is exiting: the caller must not touch the request.
    func begin() -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.inFlight += 1
            return true
        }
    }

    func end() { state.withLock { $0.inFlight -= 1 } }

    func workerStarted() { state.withLock { $0.runningWorkers += 1 } }

    /// The number of workers still running after this one leaves.
    func workerEnded() -> Int {
        state.withLock {
            $0.runningWorkers -= 1
            return $0.runningWorkers
        }
    }

    /// Closes the door when nothing is in flight; `true` when closed.
    func closeIfIdle() -> Bool {
        state.withLock { state in
            if state.inFlight == 0 { state.closed = true }
            return state.closed
        }
    }
}
