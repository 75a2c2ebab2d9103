#if canImport(Glibc)
    import Glibc
#endif

/// One worker thread's loop: its own `FCGX_Request` and responder, one request at a time.
struct FastCGIWorker: Sendable {
    let index: Int
    let socket: Int32
    let bodyLimit: Int
    let inFlight: InFlightRequests

    /// Serves until the server stops or the listening socket fails; returns the failed accept's
    /// result (`-errno`) when it ended without a stop. The responder is made here, on this
    /// thread, and never leaves it.
    func run(makeResponder: @Sendable (Int) throws -> any HTTPResponder) throws(TransportStartError) -> Int32? {
        let request = try FastCGIRequest(socket: socket)
        let responder: any HTTPResponder
        do {
            responder = try makeResponder(index)
        } catch {
            throw TransportStartError("worker \(index) cannot start: \(error)")
        }
        let reader = RequestBodyReader(limit: bodyLimit)
        while !inFlight.isStopping {
            let accepted = request.accept()
            guard accepted >= 0 else { return inFlight.isStopping ? nil : accepted }
            // The process decided to exit while this worker waited: leave the request alone.
            guard inFlight.begin() else { while true { pause() } }
            let parameters = request.parameters
            let body = reader.read(declaredLength: parameters.contentLength, untilEndOfStream: true) {
                request.readBody(into: $0, count: $1)
            }
            let response = responder.respond(
                to: HTTPRequest(parameters: parameters, body: body.bytes, bodyTooLarge: body.tooLarge))
            request.discardRemainingBody()
            request.write(response.cgiBytes())
            request.finish()
            inFlight.end()
        }
        return nil
    }
}
