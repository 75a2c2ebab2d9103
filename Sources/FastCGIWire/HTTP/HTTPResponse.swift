/// A response: status, extra headers and body. The transport writes it in CGI form.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// What a stopping server answers a request it will not serve (SPEC 7: 503 with Retry-After
    /// at worst); each program may pass one in its own shape instead.
    public static let stopping = HTTPResponse(
        status: 503, headers: [("Content-Type", "text/plain; charset=utf-8"), ("Retry-After", "5")],
        body: Array("Stopping; try again later\n".utf8))

    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// The value of header `name` (case-insensitive), if present.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The CGI/FastCGI form: `Status:` line, headers, blank line, body, as one buffer.
    public func cgiBytes() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(192 + body.count)
        writeCGI { out.append(contentsOf: $0) }
        return out
    }

    /// The CGI/FastCGI form handed to `write` piece by piece, each piece valid during its call:
    /// the FastCGI worker copies them straight into libfcgi's buffer. Pieces are each string's own
    /// UTF-8: string interpolation cost a tenth of a registration, and building one array of the
    /// pieces (appending `utf8` views, growing it) another 4%.
    public func writeCGI(_ write: (UnsafeRawBufferPointer) -> Void) {
        func put(_ text: String) {
            var text = text
            text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
        }
        put("Status: ")
        put(String(status))
        put(" ")
        put(HTTPResponse.reasonPhrase(status))
        put("\r\n")
        for (name, value) in headers {
            put(name)
            put(": ")
            put(value)
            put("\r\n")
        }
        put("Content-Length: ")
        put(String(body.count))
        put("\r\n\r\n")
        body.withUnsafeBytes(write)
    }

    public static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 410: "Gone"
        case 413: "Payload Too Large"
        case 415: "Unsupported Media Type"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }

    public static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body
            && lhs.headers.map { "\($0.name):\($0.value)" } == rhs.headers.map { "\($0.name):\($0.value)" }
    }
}
