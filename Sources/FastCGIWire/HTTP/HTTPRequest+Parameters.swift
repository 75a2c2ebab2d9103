extension HTTPRequest {
    /// The request `parameters` describe, with `body` already read: method, routing path and
    /// Content-Type taken from them (SPEC section 3), the parameters kept as they came.
    public init(parameters: RequestParameters, body: [UInt8], bodyTooLarge: Bool = false, gateway: Gateway) {
        let contentType = parameters["CONTENT_TYPE"].flatMap { $0.isEmpty ? nil : $0 }
        self.init(
            method: parameters["REQUEST_METHOD"] ?? "GET",
            path: Self.routingPath(parameters),
            contentType: contentType,
            body: body,
            bodyTooLarge: bodyTooLarge,
            parameters: parameters,
            gateway: gateway)
    }

    /// The path the responder routes on, from FastCGI/CGI parameters (SPEC section 3):
    /// `DOCUMENT_URI` or `REQUEST_URI` without its query under nginx, `SCRIPT_NAME` + `PATH_INFO`
    /// under a CGI server.
    static func routingPath(_ parameters: RequestParameters) -> String {
        if let uri = parameters["DOCUMENT_URI"], !uri.isEmpty { return uri }
        if let uri = parameters["REQUEST_URI"], !uri.isEmpty {
            return String(uri.prefix { $0 != "?" })
        }
        return (parameters["SCRIPT_NAME"] ?? "") + (parameters["PATH_INFO"] ?? "")
    }
}
