/// Turns one request into one response. Each worker thread owns its own handler, made on that
/// thread by the server's factory, so a handler needs no locking and need not be `Sendable`.
public protocol FastCGIHandler: AnyObject {
    /// Answers `request`; `parameters` holds every FastCGI/CGI parameter of it (for example
    /// `HTTP_AUTHORIZATION`, `HTTP_APNS_TOPIC`, `QUERY_STRING`).
    func respond(to request: HTTPRequest, parameters: FastCGIParameters) -> HTTPResponse
}
