import Foundation

/// A loopback TCP socket that listens but never accepts: the kernel completes connections into
/// its backlog, and nothing is ever answered. Closed when released.
final class SilentListener {
    let port: Int
    private let fd: Int32

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, listen(fd, 512) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Connections the kernel completed and holds for an accept that never comes: for a listening
    /// socket, Linux gives its accept queue's length as TCP_INFO's `tcpi_unacked`.
    func queuedConnections() throws -> Int {
        var info = tcp_info()
        var length = socklen_t(MemoryLayout<tcp_info>.size)
        guard getsockopt(fd, Int32(IPPROTO_TCP), TCP_INFO, &info, &length) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EINVAL)
        }
        return Int(info.tcpi_unacked)
    }

    deinit { close(fd) }
}
