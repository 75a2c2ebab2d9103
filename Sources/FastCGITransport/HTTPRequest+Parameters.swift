import LiveActivityCore

extension HTTPRequest {
    /// The request the parameters describe, with `body` already read (SPEC section 3: method,
    /// routing path, Content-Type and the nginx location's APNs environment).
    init(parameters: FastCGIParameters, body: RequestBodyReader.Result) {
        let contentType = parameters["CONTENT_TYPE"].flatMap { $0.isEmpty ? nil : $0 }
        self.init(
            method: parameters["REQUEST_METHOD"] ?? "GET",
            path: HTTPRequest.routingPath { parameters[$0] },
            contentType: contentType,
            body: body.bytes,
            bodyTooLarge: body.tooLarge,
            environmentParameter: parameters["LIVEACTIVITY_APNS_ENVIRONMENT"])
    }
}
