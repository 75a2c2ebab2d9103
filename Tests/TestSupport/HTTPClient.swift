import Foundation

/// A tiny HTTP/1.1 client over a raw socket: one request per connection (`Connection: close`).
public enum HTTPClient {
    /// Sends one request to `127.0.0.1:port` and parses the answer.
    public static func request(
        port: Int, method: String, path: String, headers: [(String, String)] = [], body: [UInt8] = [],
        sourceAddress: String? = nil
    ) throws -> HTTPResult {
        let socket = try RawSocket(port: port, sourceAddress: sourceAddress)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        socket.send(Array(head.utf8) + body)
        return try HTTPResult(parsing: socket.receiveAll())
    }

    /// Sends `bytes` as they are (malformed requests) and returns whatever comes back until the
    /// server closes. `halfClose` also says "no more data" (nginx then drops a request it has
    /// not answered yet, as a client abort).
    public static func sendRaw(port: Int, _ bytes: [UInt8], halfClose: Bool = false) throws -> [UInt8] {
        let socket = try RawSocket(port: port)
        socket.send(bytes)
        if halfClose { socket.finishSending() }
        return socket.receiveAll()
    }
}
