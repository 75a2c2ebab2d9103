import FastCGIWire

/// A responder that answers with what reached it, one `name=value` line each, so a test can see
/// the request exactly as the wire made it. `?status=N` in the path answers with that status.
final class EchoResponder: HTTPResponder {
    /// Parameters to echo besides the request's own fields.
    static let echoedParameters = ["QUERY_STRING", "HTTP_X_LONG", "A_PARAMETER_NAME_LONGER_THAN_127_BYTES"]

    func respond(to request: HTTPRequest) -> HTTPResponse {
        var lines = [
            "method=\(request.method)", "path=\(request.path)", "contentType=\(request.contentType ?? "-")",
            "bodyCount=\(request.body.count)", "bodySum=\(request.body.reduce(0) { $0 &+ Int($1) })",
            "tooLarge=\(request.bodyTooLarge)",
        ]
        for name in Self.echoedParameters { lines.append("\(name)=\(request.parameters[name] ?? "-")") }
        let status = request.parameters["QUERY_STRING"].flatMap { Int($0.dropFirst("status=".count)) } ?? 200
        return HTTPResponse(status: status, headers: [("X-Echo", "yes")], body: Array(lines.joined(separator: "\n").utf8))
    }

    /// The echoed lines of `body` as `name -> value`.
    static func fields(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in body.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return fields
    }
}
