import Foundation

/// The worker threads serving one listening socket, each with its own responder, and their
/// orderly stop: no new request is taken, the ones in flight are answered.
final class WorkerPool: Sendable {
    private let socket: ListeningSocket
    private let inFlight = InFlightRequests()

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
        for index in 0..<count {
            let worker = FastCGIWorker(index: index, socket: socket.descriptor, bodyLimit: bodyLimit, inFlight: inFlight)
            let inFlight = self.inFlight
            inFlight.workerStarted()
            let thread = Thread {
                do throws(TransportStartError) {
                    try worker.run(makeResponder: makeResponder)
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

    /// Stops accepting and returns once nothing is in flight (or after `grace` seconds). Idle
    /// workers stay blocked in accept or on a kept-alive connection; none starts a request after.
    func stop(grace: TimeInterval = 10) {
        inFlight.beginStopping()
        socket.shutDown()
        let deadline = Date().addingTimeInterval(grace)
        while !inFlight.closeIfIdle() && Date() < deadline { usleep(5_000) }
    }
}
