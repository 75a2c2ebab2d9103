import LiveActivityStore
import SystemSupport

/// One page of due targets read on a thread of its own while the sweep pushes the page before
/// it (`DueCursor`'s read-ahead): on PostgreSQL a page is claimed by a statement that writes
/// every row it takes (20-30 ms for 1,000), and read between two pushes it held the sweep's
/// HTTP/2 client still for a fifth of a sweep of 100,000.
///
/// The thread ends with its read; `take` waits for it. Until then the read is the connection's
/// only user, so the cursor's owner touches the connection only after `take` (or the cursor's
/// `finish`).
final class PageAhead: Sendable {
    private let result = ConditionLock<Result<[DueRead], any Error>?>(nil)

    /// Starts `read` on a thread; nil when the system started none (the caller reads in turn).
    static func start(_ read: @escaping @Sendable () throws -> [DueRead]) -> PageAhead? {
        let ahead = PageAhead()
        let started = SystemThread.start(name: "sweep-due-ahead") {
            let result = Result { try read() }
            ahead.result.withLock { $0 = result }
            ahead.result.broadcast()
        }
        return started ? ahead : nil
    }

    /// The page read, or the read's error, once the thread has read it.
    func take() throws -> [DueRead] {
        try result.withLock(when: { $0 != nil }, do: { try $0!.get() })
    }
}
