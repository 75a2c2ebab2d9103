import CFastCGI

#if canImport(Glibc)
    import Glibc
#endif

/// The socket workers accept on: inherited as fd 0, or opened here with `FCGX_OpenSocket`.
/// It lives as long as the process. The workers accept on it themselves (`acceptConnection`) and
/// hand each connection to libfcgi, so that a stop can wake them (`AcceptWakeUp`).
final class ListeningSocket: Sendable {
    let descriptor: Int32
    /// Handed down by spawn-fcgi or systemd: the next process serves the same socket.
    let isInherited: Bool
    /// A TCP socket this process opened (new arrivals are stopped differently from a unix one's).
    private let isOwnedTCP: Bool
    /// The unix socket file this process created, removed again when it stops if the path still
    /// names it.
    private let createdFile: CreatedSocketFile?

    /// `FCGX_Init` has run, once per process (it is not thread-safe, fcgiapp.h; a static is
    /// initialised exactly once).
    static let libraryReady = FCGX_Init() == 0

    /// Opens `address`.
    init(_ address: ListenAddress, backlog: Int32) throws(TransportStartError) {
        guard Self.libraryReady else { throw TransportStartError("FCGX_Init failed") }
        switch address {
        case .inherited:
            descriptor = 0
            isInherited = true
            isOwnedTCP = false
            createdFile = nil
        case .tcp(let hostAndPort):
            isInherited = false
            isOwnedTCP = true
            // "host:port" binds that address; FCGX_OpenSocket resolves the host.
            descriptor = FCGX_OpenSocket(hostAndPort, backlog)
            createdFile = nil
            guard descriptor >= 0 else { throw TransportStartError("cannot listen on \(hostAndPort): \(Self.lastError)") }
        case .unix(let path, let mode):
            isInherited = false
            isOwnedTCP = false
            (descriptor, createdFile) = try UnixSocketFile.listen(at: path, mode: mode, backlog: backlog)
        }
    }

    /// The next connection, with `TCP_NODELAY` as libfcgi sets it (no replies to wait for).
    /// `.empty` when a non-blocking socket has nothing queued (a stopped one is made
    /// non-blocking); `.interrupted` on EINTR (a stop's wake-up) or an aborted connection, to be
    /// tried again. A stopped unix socket with nothing queued fails with EINVAL.
    func acceptConnection() -> AcceptResult {
        let connection = accept(descriptor, nil, nil)
        if connection >= 0 {
            var on: Int32 = 1
            // Refused on a unix socket (no TCP there), which needs no such option.
            _ = setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            return .connection(connection)
        }
        switch errno {
        // The aborted ones are libfcgi's list (os_unix.c is_reasonable_accept_errno).
        case EINTR, ECONNABORTED, EPROTO, ECONNRESET, ETIMEDOUT, EHOSTUNREACH, ENETUNREACH: return .interrupted
        case EAGAIN, EWOULDBLOCK: return .empty
        case let failure: return .failed(failure)
        }
    }

    /// Stops new connections reaching a socket this process opened, keeping those already queued
    /// acceptable (the workers answer them before the process exits), and makes accept return
    /// `.empty` once the queue is drained. After that no connection is reset: a new one is
    /// refused (ECONNREFUSED, or ENOENT once the file is gone) or, on TCP, waits for the next
    /// process. An inherited socket is left alone (SPEC 7): its queue and every later connection
    /// belong to the process that serves it next.
    ///
    /// A unix socket is shut down: on Linux that refuses every new connect at once while accept
    /// still returns the queued ones, then EINVAL. A TCP socket must not be (shutdown resets the
    /// queued connections): a socket filter dropping SYNs stops new handshakes instead (the
    /// client retries its SYN and meets the next process or a refusal). A handshake under way
    /// completes and is drained with the rest, unless its last ACK comes only after the drain
    /// (a lost SYN-ACK): that connection is reset at the exit. Should the kernel refuse the
    /// filter, new connections go on queueing and the stop's grace alone bounds the drain.
    func stopArrivals() {
        guard !isInherited else { return }
        // Each call is best effort, as the comment above says: a refusal leaves the grace as the bound.
        if isOwnedTCP {
            dropNewHandshakes()
        } else {
            _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        createdFile?.removeIfStillThere()
    }

    /// Attaches a classic BPF program that drops every segment with SYN set (a new handshake)
    /// and passes the rest, so a handshake already under way completes and joins the queue.
    /// Each instruction is a `struct sock_filter { u16 code; u8 jt; u8 jf; u32 k; }`, the program
    /// a `struct sock_fprog { u16 len; struct sock_filter *filter; }` (linux/filter.h, which
    /// Glibc's module does not carry); the packet starts at the TCP header.
    @discardableResult
    private func dropNewHandshakes() -> Bool {
        let program: [(code: UInt16, jt: UInt8, jf: UInt8, k: UInt32)] = [
            (0x30, 0, 0, 13),  // BPF_LD|BPF_B|BPF_ABS: the flags byte
            (0x45, 0, 1, 0x02),  // BPF_JMP|BPF_JSET|BPF_K: SYN set? next (drop), else skip one
            (0x06, 0, 0, 0),  // BPF_RET|BPF_K: keep 0 bytes (drop)
            (0x06, 0, 0, 0xFFFF_FFFF),  // BPF_RET|BPF_K: keep all
        ]
        return withUnsafeTemporaryAllocation(byteCount: 8 * program.count, alignment: 8) { instructions in
            for (index, instruction) in program.enumerated() {
                instructions.storeBytes(of: instruction.code, toByteOffset: index * 8, as: UInt16.self)
                instructions.storeBytes(of: instruction.jt, toByteOffset: index * 8 + 2, as: UInt8.self)
                instructions.storeBytes(of: instruction.jf, toByteOffset: index * 8 + 3, as: UInt8.self)
                instructions.storeBytes(of: instruction.k, toByteOffset: index * 8 + 4, as: UInt32.self)
            }
            return withUnsafeTemporaryAllocation(byteCount: 16, alignment: 8) { filter in
                filter.initializeMemory(as: UInt8.self, repeating: 0)
                filter.storeBytes(of: UInt16(program.count), toByteOffset: 0, as: UInt16.self)
                filter.storeBytes(of: instructions.baseAddress!, toByteOffset: 8, as: UnsafeMutableRawPointer.self)
                return setsockopt(descriptor, SOL_SOCKET, SO_ATTACH_FILTER, filter.baseAddress, 16) == 0
            }
        }
    }

    private static var lastError: String { String(cString: strerror(errno)) }
}

/// What one accept on the listening socket gave.
enum AcceptResult: Equatable {
    case connection(Int32)
    case interrupted
    case empty
    case failed(Int32)
}

/// The transport could not start (socket, permissions, threads): one line for the operator.
public struct TransportStartError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
