#if canImport(Glibc)
    import Glibc
#endif

/// One worker thread's loop: its own `FCGX_Request` and handler, one request at a time.
struct FastCGIWorker: Sendable {
    let index: Int
    let socket: Int32
    let bodyLimit: Int
    let inFlight: InFlightRequests

    /// Serves until the server stops or the listening socket fails. The handler is made here,
    /// on this thread, and never leaves it.
    func run(makeHandler: @Sendable (Int) throws -> any FastCGIHandler) throws(TransportStartError) {
        let request = try FastCGIRequest(socket: socket)
        let handler: any FastCGIHandler
        do {
            handler = try makeHandler(index)
        } catch {
            throw TransportStartError("worker \(index) cannot start: \(error)")
        }
        let reader = RequestBodyReader(limit: bodyLimit)
        while !inFlight.isStopping, request.accept() {
            // The process decided to exit while this worker waited: leave the request alone.
            guard inFlight.begin() else { while true { pause() } }
            let parameters = request.parameters
            let body = reader.read(declaredLength: parameters.contentLength, untilEndOfStream: true) {
                request.readBody(into: $0, count: $1)
            }
            let response = handler.respond(to: HTTPRequest(parameters: parameters, body: body), parameters: parameters)
            request.discardRemainingBody()
            request.write(response.cgiBytes())
            request.finish()
            inFlight.end()
        }
    }
}
