import Glibc
import Synchronization
import SystemSupport

/// The worker threads serving one listening socket, each with its own responder, and their
/// orderly stop: no new request is taken, the ones in flight are answered.
final class WorkerPool: Sendable {
    private let socket: ListeningSocket
    private let stoppingResponse: HTTPResponse
    private let inFlight = InFlightRequests()
    /// One per worker, made before the threads start (`start` runs once).
    private let wakeUps = LockedValue<[AcceptWakeUp]>([])
    /// A failed accept is reported once, not once per worker.
    private let acceptFailureReported = Atomic<Bool>(false)

    /// `stoppingResponse` answers the requests read once the pool is stopping.
    init(socket: ListeningSocket, stoppingResponse: HTTPResponse = .stopping) {
        self.socket = socket
        self.stoppingResponse = stoppingResponse
        // A client that hangs up must cost its request only, never the process (also when the
        // pool serves inside another program, as in the wire's tests).
        signal(SIGPIPE, SIG_IGN)
        // Installs SIGUSR2's empty handler once per process; sigaction cannot refuse a valid
        // signal and handler, and should it ever, the stop's grace still bounds the drain.
        _ = AcceptWakeUp.handlerInstalled
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
        let wakeUps = (0..<count).map { _ in AcceptWakeUp() }
        self.wakeUps.withLock { $0 = wakeUps }
        for index in 0..<count {
            let worker = FastCGIWorker(
                index: index, socket: socket, bodyLimit: bodyLimit, inFlight: inFlight, wakeUp: wakeUps[index],
                stoppingResponse: stoppingResponse)
            let inFlight = self.inFlight
            // Deeply nested JSON recurses in the parser; give it the room the main thread has.
            let started = SystemThread.start(name: "fastcgi-worker-\(index)", stackSize: 8 << 20) { [self] in
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
            if !started {
                log("worker \(index): the system started no thread for it; the pool serves without it")
                if inFlight.workerEnded() == 0 && !inFlight.isStopping { allFailed() }
            }
        }
    }

    /// Stops taking requests and returns once nothing is in flight and no worker accepts any
    /// more (or after `grace` seconds, the drain's bound in time; its bound in count is the
    /// queue at the stop, which no new connection joins). Requests in flight are served; every
    /// other request read from now on is answered `stoppingResponse`. On a socket this process
    /// opened, the connections still queued are accepted and answered too, then new ones are
    /// refused. On an inherited socket the workers stop accepting and leave the queue to the
    /// process that serves it next. Connections the web server keeps open are not waited for:
    /// their next request is answered if it comes before the exit. One that closes while idle
    /// nginx drops from its cache unused; a POST it sends on one just as the process exits meets
    /// a closed connection, unread, and nginx sends it again on a new one, which the next process
    /// serves - since the shipped snippet lets it resend a POST (`fastcgi_next_upstream error
    /// non_idempotent`; by default it answered 502): safe because no request is left unanswered
    /// once read here.
    func stop(grace: Double = 10) {
        // Stopping first: a worker whose accept fails once the arrivals are stopped (a shut-down
        // unix socket's EINVAL) must see a stop, not a failed socket (which ends the process
        // non-zero, "every worker failed"). One that sees the stop while the socket is still
        // blocking is woken below again and again until `stopArrivals` made it non-blocking.
        inFlight.beginStopping()
        socket.stopArrivals()
        let wakeUps = self.wakeUps.withLock { $0 }
        // On the monotonic clock: a step of the wall clock must neither cut the drain short nor stretch it.
        let deadline = ContinuousClock.now + .seconds(grace)
        while !inFlight.closeIfIdle() && ContinuousClock.now < deadline {
            // Again each round: a wake-up that lands just before a worker enters accept is lost.
            for wakeUp in wakeUps { wakeUp.wake() }
            usleep(2_000)
        }
    }
}
