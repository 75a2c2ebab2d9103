import Foundation
import Synchronization

/// The worker threads serving one listening socket, each with its own responder, and their
/// orderly stop: no new request is taken, the ones in flight are answered.
final class WorkerPool: Sendable {
    private let socket: ListeningSocket
    private let inFlight = InFlightRequests()
    /// A failed accept is reported once, not once per worker.
    private let acceptFailureReported = Atomic<Bool>(false)

    init(socket: ListeningSocket) {
        self.socket = socket
        // A client that hangs up must cost its request only, never the process (also when the
        // pool serves inside another program, as in the wire's tests).
        signal(SIGPIPE, SIG_IGN)
    }

    /// Starts `count` workers; each makes its responder on its own thread. `allFailed` runs when
    /// every worker has ended without a stop (the socket failed, or no responder could be made).
    func start(
        count: Int, bodyLimit: Int, log: @escaping @Sendable (String) -> Void,
        makeResponder: @escaping @Sendable (_ worker: Int) throws -> any HTTPResponder,
        allFailed: @escaping @Sendable () -> Void
    ) {
        // Every worker is counted before the first thread runs: one that fails at once must not
        // find the count at zero while the others are still being started, and report all failed.
        for _ in 0..<count { inFlight.workerStarted() }
        for index in 0..<count {
            let worker = FastCGIWorker(index: index, socket: socket.descriptor, bodyLimit: bodyLimit, inFlight: inFlight)
            let inFlight = self.inFlight
            let thread = Thread { [self] in
                do throws(TransportStartError) {
                    if let failed = try worker.run(makeResponder: makeResponder),
                        !acceptFailureReported.exchange(true, ordering: .sequentiallyConsistent)
                    {
                        log("accept failed: \(String(cString: strerror(-failed))) (errno \(-failed)); the worker stops")
                    }
                } catch {
                    log(error.description)
                }
                if inFlight.workerEnded() == 0 && !inFlight.isStopping { allFailed() }
            }
            thread.name = "fastcgi-worker-\(index)"
            // Deeply nested JSON recurses in the parser; give it the room the main thread has.
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Stops taking requests and returns once nothing is in flight (or after `grace` seconds).
    /// Requests that arrive meanwhile are still answered; after that no worker starts one. On an
    /// inherited socket, workers waiting in accept are simply left there: the process exits, and
    /// connections still in the socket's backlog go to the process that serves it next.
    func stop(grace: TimeInterval = 10) {
        inFlight.beginStopping()
        socket.shutDownIfOwned()
        let deadline = Date().addingTimeInterval(grace)
        while !inFlight.closeIfIdle() && Date() < deadline { usleep(5_000) }
    }
}
