/// Rebuilding the HTTP/2 request from the FastCGI parameters nginx sends.
extension StandInRequest {
    /// `HTTP_APNS_TOPIC` becomes `apns-topic`, and so on for every `HTTP_*` parameter.
    public init(method: String, path: String, body: [UInt8], parameters: [String: String]) {
        var headers: [String: String] = [:]
        for (name, value) in parameters where name.hasPrefix("HTTP_") {
            headers[name.dropFirst(5).lowercased().replacingOccurrences(of: "_", with: "-")] = value
        }
        self.init(
            method: method, path: path, headers: headers, body: body,
            serverProtocol: parameters["SERVER_PROTOCOL"] ?? "unknown")
    }
}
