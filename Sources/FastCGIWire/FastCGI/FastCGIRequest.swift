import CFastCGI

/// Owns one libfcgi `FCGX_Request` (explicit-request API, fcgiapp.h): allocated, initialised on
/// the listening socket, freed in `deinit`. Confined to the worker thread that made it.
final class FastCGIRequest {
    let pointer: UnsafeMutablePointer<FCGX_Request>

    init(socket: Int32) throws(TransportStartError) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: FCGX_Request())
        guard FCGX_InitRequest(pointer, socket, 0) == 0 else {
            pointer.deallocate()
            throw TransportStartError("FCGX_InitRequest failed")
        }
    }

    /// Waits for the next request (on a kept-alive connection or a newly accepted one): 0, or
    /// below 0 when the listening socket was shut down or failed (libfcgi returns `-errno`).
    func accept() -> Int32 { FCGX_Accept_r(pointer) }

    /// This request's parameters.
    var parameters: RequestParameters { RequestParameters(environ: pointer.pointee.envp) }

    /// Reads up to `count` bytes of the body (FCGI_STDIN); 0 at its end.
    func readBody(into buffer: UnsafeMutablePointer<CChar>, count: Int32) -> Int32 {
        FCGX_GetStr(buffer, count, pointer.pointee.in)
    }

    /// Reads and drops what is left of the body, so a kept-alive connection carries no stale
    /// stdin records into the next request.
    func discardRemainingBody() {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 4096) { scratch in
            while readBody(into: scratch.baseAddress!, count: Int32(scratch.count)) > 0 {}
        }
    }

    /// Writes the response (FCGI_STDOUT); a client that went away only loses its own answer.
    func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                _ = FCGX_PutStr($0.baseAddress, Int32($0.count), pointer.pointee.out)
            }
        }
    }

    /// Flushes, ends the request and closes the connection unless the server asked to keep it.
    func finish() { FCGX_Finish_r(pointer) }

    deinit {
        FCGX_Free(pointer, 1)
        pointer.deallocate()
    }
}
