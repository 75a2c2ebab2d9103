import CFastCGI

/// Owns one libfcgi `FCGX_Request` (explicit-request API, fcgiapp.h): allocated, initialised,
/// freed in `deinit`. Confined to the worker thread that made it.
///
/// The worker accepts connections itself and hands each one over (`adopt`): libfcgi 2.4 has no
/// call for that, but `FCGX_Accept_r` reads from `ipcFd` when it holds a connection and accepts
/// only when it does not. The request's listening socket is -1, so libfcgi never accepts on its
/// own (a connection that carries no request ends `FCGX_Accept_r` with -EBADF instead).
final class FastCGIRequest {
    let pointer: UnsafeMutablePointer<FCGX_Request>
    /// Where a body left unread is dropped: kept for the worker's life, since a temporary one of
    /// this size is a heap allocation per request.
    private let scratch = UnsafeMutablePointer<CChar>.allocate(capacity: scratchSize)
    private static let scratchSize = 4096

    init() throws(TransportStartError) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: FCGX_Request())
        // A throw once every property is set still runs deinit, which frees both (freeing them
        // here as well would free them twice).
        guard FCGX_InitRequest(pointer, -1, 0) == 0 else { throw TransportStartError("FCGX_InitRequest failed") }
    }

    /// Whether a connection is open: one kept by the web server for its next request.
    var hasConnection: Bool { pointer.pointee.ipcFd >= 0 }

    /// Takes `connection`, just accepted, as the one to read the next request from. Marked
    /// "kept" so that `FCGX_Accept_r`'s first step (finishing the previous request) leaves it
    /// open; the request's own BEGIN_REQUEST record then says whether it stays open after.
    func adopt(_ connection: Int32) {
        pointer.pointee.ipcFd = connection
        pointer.pointee.keepConnection = 1
    }

    /// Reads the next request on the connection: 0, or below 0 when the connection carried none
    /// (the client closed it or sent no valid request; libfcgi has closed it).
    func accept() -> Int32 { FCGX_Accept_r(pointer) }

    /// Closes the connection after this request even if the web server asked to keep it.
    func closeAfterThisRequest() { pointer.pointee.keepConnection = 0 }

    /// This request's parameters.
    var parameters: RequestParameters { RequestParameters(environ: pointer.pointee.envp) }

    /// Reads up to `count` bytes of the body (FCGI_STDIN); 0 at its end.
    func readBody(into buffer: UnsafeMutablePointer<CChar>, count: Int32) -> Int32 {
        FCGX_GetStr(buffer, count, pointer.pointee.in)
    }

    /// Reads and drops what is left of the body, so a kept-alive connection carries no stale
    /// stdin records into the next request.
    func discardRemainingBody() {
        while readBody(into: scratch, count: Int32(Self.scratchSize)) > 0 {}
    }

    /// Writes the response (FCGI_STDOUT) in CGI form, each piece copied into libfcgi's buffer;
    /// a client that went away only loses its own answer.
    func write(_ response: HTTPResponse) {
        response.writeCGI { piece in
            // -1 only when the client went away: its answer is lost, and nothing else.
            _ = FCGX_PutStr(piece.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(piece.count), pointer.pointee.out)
        }
    }

    /// Flushes, ends the request and closes the connection unless the server asked to keep it.
    func finish() { FCGX_Finish_r(pointer) }

    deinit {
        FCGX_Free(pointer, 1)
        pointer.deallocate()
        scratch.deallocate()
    }
}
