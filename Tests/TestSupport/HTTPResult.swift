import Foundation

/// A parsed HTTP/1.1 response or CGI output: status, headers, body.
public struct HTTPResult: Sendable, CustomStringConvertible {
    public var status: Int
    /// Header names lowercased, in order.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The first value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name == name.lowercased() }?.value
    }

    public var description: String { "\(status) \(text)" }

    /// Parses `HTTP/1.1 200 OK` responses and CGI output (`Status: 200 OK` header, or none: 200).
    public init(parsing bytes: [UInt8]) throws {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = bytes.firstRange(of: separator) else {
            throw SocketError(
                "no complete response head in \(bytes.count) bytes: \(String(decoding: bytes.prefix(200), as: UTF8.self))")
        }
        let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")[...]
        status = 200
        if let first = lines.first, first.hasPrefix("HTTP/") {
            lines.removeFirst()
            let parts = first.split(separator: " ")
            guard parts.count >= 2, let code = Int(parts[1]) else { throw SocketError("bad status line: \(first)") }
            status = code
        }
        headers = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.append((name, value))
        }
        if let cgiStatus = headers.first(where: { $0.name == "status" }), let code = Int(cgiStatus.value.prefix(3)) {
            status = code
        }
        var rest = Array(bytes[end.upperBound...])
        if let length = headers.first(where: { $0.name == "content-length" }).flatMap({ Int($0.value) }), length <= rest.count {
            rest = Array(rest.prefix(length))
        }
        body = rest
    }
}
