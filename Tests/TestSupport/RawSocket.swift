import Foundation

/// A blocking client socket for tests: TCP to a loopback port (optionally from another loopback
/// source address, which nginx sees as another client) or a unix socket. Closed in `deinit`.
///
/// Each send and receive waits at most `timeout` seconds (60 by default): longer than any bound
/// of the servers it talks to (nginx's `fastcgi_read_timeout` of 10 s, a stop's 10 s of grace),
/// so on a loaded machine a slow server's own answer still arrives instead of a cut-off here.
public final class RawSocket {
    public let descriptor: Int32

    /// Connects to `127.0.0.1:port`, from `sourceAddress` when given (e.g. `127.0.0.2`).
    public init(port: Int, sourceAddress: String? = nil, timeout: TimeInterval = 60) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SocketError("socket: \(Self.lastError)") }
        setTimeout(timeout)
        if let sourceAddress {
            var source = Self.address(sourceAddress, port: 0)
            let bound = withUnsafePointer(to: &source) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else { throw SocketError("bind \(sourceAddress): \(Self.lastError)") }
        }
        var target = Self.address("127.0.0.1", port: port)
        let connected = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw SocketError("connect :\(port): \(Self.lastError)") }
    }

    /// Connects to the unix socket at `path`.
    public init(unixPath path: String, timeout: TimeInterval = 60) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SocketError("socket: \(Self.lastError)") }
        setTimeout(timeout)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else { throw SocketError("unix path too long: \(path)") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
            raw[pathBytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else { throw SocketError("connect \(path): \(Self.lastError)") }
    }

    /// Sends all of `bytes` (a peer that hangs up early only shortens what it gets).
    public func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return }
            offset += sent
        }
    }

    /// Says "no more data" while still reading the answer.
    public func finishSending() { _ = shutdown(descriptor, Int32(SHUT_WR)) }

    /// What one read returns: some bytes, or none when the peer closed or the timeout passed.
    public func receiveSome() -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 16384)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        return count > 0 ? Array(buffer[0..<count]) : []
    }

    /// Reads until the peer closes, the timeout passes, or `limit` bytes arrived.
    public func receiveAll(limit: Int = 1 << 20) -> [UInt8] {
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 16384)
        while received.count < limit {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received.append(contentsOf: buffer[0..<count])
        }
        return received
    }

    // Also runs when an init throws after `descriptor` is set, so no init path closes it itself:
    // a second close could hit a descriptor number another thread has just been given.
    deinit { if descriptor >= 0 { close(descriptor) } }

    private func setTimeout(_ seconds: TimeInterval) {
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1_000_000))
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    private static func address(_ text: String, port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(text)
        address.sin_port = UInt16(port).bigEndian
        return address
    }

    private static var lastError: String { String(cString: strerror(errno)) }
}

/// A socket call failed.
public struct SocketError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
