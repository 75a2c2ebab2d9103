#if canImport(Glibc)
    import Glibc
#endif

/// The moment by which one call must have its answer, on the monotonic clock (a wall-clock step
/// moves no deadline).
struct CallDeadline {
    let limit: Duration
    private let end: ContinuousClock.Instant

    init(after limit: Duration) {
        self.limit = limit
        end = .now + limit
    }

    /// Milliseconds left, for poll(2): 0 once passed, rounded up so a wait never ends early.
    var remainingMilliseconds: Int32 {
        let left = ContinuousClock.now.duration(to: end)
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }

    /// What a socket wait came to.
    enum Wait {
        /// poll(2)'s `revents`: ready, hung up or failed (each leads libpq to read and see).
        case ready(Int16)
        case timedOut
    }

    /// Waits until `socket` is ready for `events` or this deadline passes.
    func wait(for events: Int16, on socket: Int32) -> Wait {
        while true {
            let milliseconds = remainingMilliseconds
            var entry = pollfd(fd: socket, events: events, revents: 0)
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return .ready(entry.revents) }
            if ready == 0 {
                if milliseconds == 0 { return .timedOut }
                continue  // poll's own clock may end a hair before ours
            }
            // EINTR: a signal; wait again for what is left. Any other failure is reported as
            // ready, so libpq's own read or write meets it and says what it is (or, should libpq
            // not mind, the deadline still ends the call).
            if errno != EINTR { return milliseconds == 0 ? .timedOut : .ready(Int16(POLLERR)) }
        }
    }

    /// The limit in words, for an error message.
    var limitDescription: String {
        let (seconds, attoseconds) = limit.components
        let tenths = attoseconds / 100_000_000_000_000_000
        return tenths == 0 ? "\(seconds) s" : "\(seconds).\(tenths) s"
    }
}
