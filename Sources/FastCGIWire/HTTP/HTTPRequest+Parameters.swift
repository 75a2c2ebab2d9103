extension HTTPRequest {
    /// The request the parameters describe, with `body` already read (SPEC section 3: method,
    /// routing path, Content-Type and the nginx location's APNs environment).
    init(parameters: FastCGIParameters, body: RequestBodyReader.Result) {
        let contentType = parameters["CONTENT_TYPE"].flatMap { $0.isEmpty ? nil : $0 }
        self.init(
            method: parameters["REQUEST_METHOD"] ?? "GET",
            path: Self.routingPath(parameters),
            contentType: contentType,
            body: body.bytes,
            bodyTooLarge: body.tooLarge,
            environmentParameter: parameters["LIVEACTIVITY_APNS_ENVIRONMENT"])
    }

    /// The path the responder routes on, from FastCGI/CGI parameters (SPEC section 3):
    /// `DOCUMENT_URI` or `REQUEST_URI` without its query under nginx, `SCRIPT_NAME` + `PATH_INFO`
    /// under a CGI server.
    static func routingPath(_ parameters: FastCGIParameters) -> String {
        if let uri = parameters["DOCUMENT_URI"], !uri.isEmpty { return uri }
        if let uri = parameters["REQUEST_URI"], !uri.isEmpty {
            return String(uri.prefix { $0 != "?" })
        }
        return (parameters["SCRIPT_NAME"] ?? "") + (parameters["PATH_INFO"] ?? "")
    }
}
