import FastCGIWire

extension HTTPResponse {
    /// The headers SPEC section 3 promises on every response of the API; one array shared by
    /// every answer rather than one built per answer.
    private static let jsonHeaders: [(name: String, value: String)] = [
        ("Content-Type", "application/json"),
        ("Cache-Control", "no-store"),
        ("Access-Control-Allow-Origin", "*"),
    ]

    /// A JSON answer with the headers SPEC section 3 promises on every response of the API.
    static func json(_ status: Int, _ body: String, extraHeaders: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: extraHeaders.isEmpty ? jsonHeaders : jsonHeaders + extraHeaders,
            body: Array(body.utf8))
    }
}
