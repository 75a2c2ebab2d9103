import LiveActivityDomain

/// Rebuilding the HTTP/2 request from the FastCGI parameters nginx sends.
extension StandInRequest {
    /// `HTTP_APNS_TOPIC` becomes `apns-topic`, and so on for every `HTTP_*` parameter;
    /// `CONTENT_TYPE` is `content-type`; `APNS_ENVIRONMENT` (from nginx's `map $host`) the environment.
    public init(method: String, path: String, body: [UInt8], parameters: [String: String]) {
        var headers: [String: String] = [:]
        for (name, value) in parameters where name.hasPrefix("HTTP_") {
            headers[name.dropFirst(5).lowercased().replacingOccurrences(of: "_", with: "-")] = value
        }
        if headers["content-type"] == nil, let type = parameters["CONTENT_TYPE"], !type.isEmpty {
            headers["content-type"] = type
        }
        self.init(
            method: method, path: path, headers: headers, body: body,
            serverProtocol: parameters["SERVER_PROTOCOL"] ?? "unknown", connection: parameters["STANDIN_CONNECTION"],
            environment: parameters["APNS_ENVIRONMENT"].flatMap(APNsEnvironment.init(name:)) ?? .production)
    }
}
