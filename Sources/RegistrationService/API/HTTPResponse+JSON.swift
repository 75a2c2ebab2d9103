import FastCGIWire

extension HTTPResponse {
    /// A JSON answer with the headers SPEC section 3 promises on every response of the API.
    static func json(_ status: Int, _ body: String, extraHeaders: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(
            status: status,
            headers: [
                ("Content-Type", "application/json"),
                ("Cache-Control", "no-store"),
                ("Access-Control-Allow-Origin", "*"),
            ] + extraHeaders,
            body: Array(body.utf8))
    }
}
