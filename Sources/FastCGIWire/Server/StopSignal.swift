import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Why the server stops.
enum StopReason: UInt8, Sendable {
    /// SIGTERM or SIGINT: finish what is in flight, then exit 0.
    case signal = 0x54
    /// Every worker failed: exit non-zero.
    case workersFailed = 0x46
}

/// A self-pipe the main thread waits on: signal handlers (any thread) and workers write one
/// byte saying why to stop. `write(2)` is async-signal-safe; nothing else runs in the handler.
final class StopSignal: Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32

    /// The pipe's write end for the C signal handler, which can capture nothing.
    private static let handlerWriteEnd = Atomic<Int32>(-1)

    init() throws(TransportStartError) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw TransportStartError("cannot create the stop pipe") }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    /// Routes SIGTERM and SIGINT to this pipe. Only one `StopSignal` per process does this,
    /// on the main thread before the workers start.
    func installSignalHandlers() {
        Self.handlerWriteEnd.store(writeEnd, ordering: .sequentiallyConsistent)
        let handler: @convention(c) (Int32) -> Void = { _ in
            var byte = StopReason.signal.rawValue
            let fd = StopSignal.handlerWriteEnd.load(ordering: .sequentiallyConsistent)
            // Nothing a handler could do if it failed: a full pipe already holds a reason.
            _ = write(fd, &byte, 1)
        }
        signal(SIGTERM, handler)
        signal(SIGINT, handler)
        // A spawner may hand down a mask that blocks them (threads inherit it from here).
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGTERM)
        sigaddset(&stopSignals, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
    }

    func post(_ reason: StopReason) {
        var byte = reason.rawValue
        // A full pipe already holds a reason the main thread will read.
        _ = write(writeEnd, &byte, 1)
    }

    /// Blocks until a reason is posted.
    func wait() -> StopReason {
        var byte: UInt8 = 0
        while true {
            let count = read(readEnd, &byte, 1)
            if count == 1, let reason = StopReason(rawValue: byte) { return reason }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return .workersFailed }
        }
    }
}
