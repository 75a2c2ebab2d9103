/// Turns one request into one response: the whole contract between the wire and what it serves.
/// Each worker thread owns its own responder, made on that thread by the server's factory, so a
/// responder needs no locking and need not be `Sendable`.
public protocol HTTPResponder: AnyObject {
    /// Answers `request`; never fails (a failure is an error response).
    func respond(to request: HTTPRequest) -> HTTPResponse
}
