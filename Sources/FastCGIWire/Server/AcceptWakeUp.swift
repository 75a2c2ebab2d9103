import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Wakes one worker blocked in `accept(2)` without touching the listening socket: a signal
/// (SIGUSR2, its handler does nothing) sent to that thread alone makes the call fail with EINTR.
///
/// Why a signal and not `shutdown(2)`: on a TCP socket shutdown resets every connection queued
/// in the backlog, and an inherited socket is shared with the next process (SPEC 7). Why not
/// poll(2) on the socket and a self-pipe: the socket stays blocking (an inherited socket's flags
/// belong to its next process too), so a worker that polled "readable" can still block in accept
/// when another worker or process took the connection first; it needs the signal anyway. Why
/// our own accept and not libfcgi's `FCGI_FAIL_ACCEPT_ON_INTR`: `FCGX_Accept_r` also reads the
/// request's first records on the same thread, and an EINTR there drops the connection
/// unanswered. So the signal is blocked on every worker except while it is inside accept.
final class AcceptWakeUp: Sendable {
    static let signalNumber = SIGUSR2

    /// The worker's thread while it is inside the accept loop: while this is set the thread is
    /// alive, so `pthread_kill` under the lock never names a thread that has ended. One lock per
    /// worker, so only a stop ever contends for it.
    private let acceptingThread = LockedValue<pthread_t?>(nil)

    /// Installs the handler once per process, without SA_RESTART so accept is not restarted.
    static let handlerInstalled: Bool = {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        return sigaction(signalNumber, &action, nil) == 0
    }()

    /// Blocks the signal on the calling worker thread: outside accept it must interrupt nothing
    /// (libfcgi's reads, SQLite). A signal sent meanwhile waits and then does nothing.
    static func blockOnThisThread() { setMask(SIG_BLOCK) }

    /// Runs `accept` (the accept loop) where a `wake()` can interrupt it.
    func whileAccepting<Result>(_ accept: () -> Result) -> Result {
        acceptingThread.withLock { $0 = pthread_self() }
        Self.setMask(SIG_UNBLOCK)
        defer {
            Self.setMask(SIG_BLOCK)
            acceptingThread.withLock { $0 = nil }
        }
        return accept()
    }

    /// Interrupts the worker's accept if it is in one. A signal that lands just before the call
    /// is lost, so the stop repeats this until the worker has left.
    func wake() {
        acceptingThread.withLock { thread in
            if let thread { _ = pthread_kill(thread, Self.signalNumber) }
        }
    }

    private static func setMask(_ how: Int32) {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, signalNumber)
        pthread_sigmask(how, &signals, nil)
    }
}
