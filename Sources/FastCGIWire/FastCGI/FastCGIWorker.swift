#if canImport(Glibc)
    import Glibc
#endif

/// One worker thread's loop: its own `FCGX_Request` and responder, one request at a time, each
/// on a connection the worker accepted itself or one the web server kept open.
struct FastCGIWorker: Sendable {
    let index: Int
    let socket: ListeningSocket
    let bodyLimit: Int
    let inFlight: InFlightRequests
    let wakeUp: AcceptWakeUp
    /// The answer to a request read once the server is stopping (503 with Retry-After).
    let stoppingResponse: HTTPResponse

    /// Serves until the server stops or the listening socket fails; returns the failed accept's
    /// result (`-errno`) when it ended without a stop. The responder is made here, on this
    /// thread, and never leaves it.
    ///
    /// Once stopping, a request is answered `stoppingResponse` (one in flight is served), with
    /// a proper END_REQUEST and a clean close, and on a socket this process opened the worker
    /// goes on accepting until nothing is queued (`ListeningSocket.stopArrivals`). The drain is
    /// bounded by the queue: no new connection can join it.
    func run(makeResponder: @Sendable (Int) throws -> any HTTPResponder) throws(TransportStartError) -> Int32? {
        AcceptWakeUp.blockOnThisThread()
        let request = try FastCGIRequest()
        let responder: any HTTPResponder
        do {
            responder = try makeResponder(index)
        } catch {
            throw TransportStartError("worker \(index) cannot start: \(error)")
        }
        let reader = RequestBodyReader(limit: bodyLimit)
        func answer(serving: Bool) {
            if serving {
                let parameters = request.parameters
                let body = reader.read(declaredLength: parameters.contentLength, untilEndOfStream: true) {
                    request.readBody(into: $0, count: $1)
                }
                let response = responder.respond(
                    to: HTTPRequest(parameters: parameters, body: body.bytes, bodyTooLarge: body.tooLarge, gateway: .fastCGI))
                request.discardRemainingBody()
                request.write(response)
            } else {
                // The whole request is read first: closing with unread input would reset it.
                request.discardRemainingBody()
                request.write(stoppingResponse)
            }
            if inFlight.isStopping { request.closeAfterThisRequest() }
            request.finish()
        }
        while true {
            if request.hasConnection {
                // The web server's kept connection: its next request comes whenever it sends one
                // (until the process exits, which the stop does not wait for).
                guard request.accept() >= 0 else { continue }
                // After the door closed only the stopping answer may go out, which needs no
                // library the exit could pull away; it may not get out before the exit.
                let counted = inFlight.begin()
                answer(serving: counted && !inFlight.isStopping)
                if counted { inFlight.end() }
                continue
            }
            // Accepting counts as in flight: the stop waits for the queue to drain.
            guard inFlight.begin() else { return nil }
            switch nextConnection() {
            case .connection(let connection):
                request.adopt(connection)
                if request.accept() >= 0 { answer(serving: !inFlight.isStopping) }
                inFlight.end()
            case .failed(let failure):
                inFlight.end()
                return inFlight.isStopping ? nil : -failure
            case .interrupted, .empty:
                // The stop's: nothing (more) to accept here.
                inFlight.end()
                return nil
            }
        }
    }

    /// Accepts the next connection, where the stop's wake-up can interrupt it. `.empty` or
    /// `.interrupted` only once stopping: when the socket is inherited (its queue is the next
    /// process's), or when this process's socket has nothing left queued.
    private func nextConnection() -> AcceptResult {
        wakeUp.whileAccepting {
            while true {
                // After `whileAccepting` published this thread: a stop that begins later wakes it.
                if inFlight.isStopping && socket.isInherited { return .empty }
                switch socket.acceptConnection() {
                case .connection(let connection): return .connection(connection)
                case .interrupted: continue
                case .empty:
                    if inFlight.isStopping { return .empty }
                    // A socket handed down non-blocking: wait until something is queued.
                    // Whatever poll says (EINTR from a stop's wake-up included), accept is tried again.
                    var waiting = pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0)
                    _ = poll(&waiting, 1, -1)
                case .failed(let failure): return .failed(failure)
                }
            }
        }
    }
}
