/// A minimal FastCGI client (the web server's side of the FastCGI spec), to test a responder
/// without nginx: one request at a time, on a connection of its own or a kept one.
public enum FastCGIClient {
    /// Sends one responder request with `parameters` and `body`; returns the CGI answer. With
    /// `keepConnection` the responder leaves the connection open for the next request (as nginx's
    /// `fastcgi_keep_conn on` asks), so the answer is read up to its END_REQUEST record.
    public static func request(
        over socket: RawSocket, parameters: [String: String], body: [UInt8] = [], keepConnection: Bool = false
    ) throws -> HTTPResult {
        socket.send(requestBytes(parameters: parameters, body: body, keepConnection: keepConnection))
        var received: [UInt8] = []
        while true {
            if let stdout = try readStdout(received) { return try HTTPResult(parsing: stdout) }
            let more = socket.receiveSome()
            guard !more.isEmpty else { throw SocketError("no FCGI_END_REQUEST in \(received.count) bytes") }
            received += more
        }
    }

    /// The records of one request: BEGIN_REQUEST, PARAMS, empty PARAMS, STDIN, empty STDIN.
    public static func requestBytes(parameters: [String: String], body: [UInt8], keepConnection: Bool = false) -> [UInt8] {
        var pairs: [UInt8] = []
        for (name, value) in parameters.sorted(by: { $0.key < $1.key }) {
            pairs += length(name.utf8.count) + length(value.utf8.count) + Array(name.utf8) + Array(value.utf8)
        }
        // Role 1 = responder; flags bit 0 = FCGI_KEEP_CONN.
        var bytes = record(type: 1, [0, 1, keepConnection ? 1 : 0, 0, 0, 0, 0, 0])
        for chunk in chunks(pairs) { bytes += record(type: 4, chunk) }
        bytes += record(type: 4, [])
        for chunk in chunks(body) { bytes += record(type: 5, chunk) }
        bytes += record(type: 5, [])
        return bytes
    }

    /// One record: version 1, `type`, request id 1, content length, no padding.
    public static func record(type: UInt8, _ content: [UInt8], version: UInt8 = 1) -> [UInt8] {
        [version, type, 0, 1, UInt8(content.count >> 8), UInt8(content.count & 0xFF), 0, 0] + content
    }

    /// The STDOUT content of the records in `bytes` once they reach END_REQUEST; nil before.
    static func readStdout(_ bytes: [UInt8]) throws -> [UInt8]? {
        var stdout: [UInt8] = []
        var offset = 0
        while offset + 8 <= bytes.count {
            let type = bytes[offset + 1]
            let length = Int(bytes[offset + 4]) << 8 | Int(bytes[offset + 5])
            let padding = Int(bytes[offset + 6])
            guard offset + 8 + length + padding <= bytes.count else { return nil }
            if type == 6 { stdout += bytes[(offset + 8)..<(offset + 8 + length)] }
            if type == 3 { return stdout }
            offset += 8 + length + padding
        }
        return nil
    }

    private static func length(_ count: Int) -> [UInt8] {
        count < 128
            ? [UInt8(count)]
            : [UInt8(0x80 | (count >> 24) & 0x7F), UInt8((count >> 16) & 0xFF), UInt8((count >> 8) & 0xFF), UInt8(count & 0xFF)]
    }

    private static func chunks(_ bytes: [UInt8]) -> [[UInt8]] {
        stride(from: 0, to: bytes.count, by: 65535).map { Array(bytes[$0..<min($0 + 65535, bytes.count)]) }
    }
}
