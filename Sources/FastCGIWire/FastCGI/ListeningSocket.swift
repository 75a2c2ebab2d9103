import CFastCGI

#if canImport(Glibc)
    import Glibc
#endif

/// The socket workers accept on: inherited as fd 0, or opened here with `FCGX_OpenSocket`.
/// It lives as long as the process.
final class ListeningSocket: Sendable {
    let descriptor: Int32
    /// Handed down by spawn-fcgi or systemd: the next process serves the same socket.
    let isInherited: Bool
    /// The unix socket file this process created, removed again on shutdown if the path still
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
            createdFile = nil
        case .tcp(let hostAndPort):
            isInherited = false
            // "host:port" binds that address; FCGX_OpenSocket resolves the host.
            descriptor = FCGX_OpenSocket(hostAndPort, backlog)
            createdFile = nil
            guard descriptor >= 0 else { throw TransportStartError("cannot listen on \(hostAndPort): \(Self.lastError)") }
        case .unix(let path, let mode):
            isInherited = false
            // libfcgi unlinks a stale socket file at `path` before binding (os_unix.c). bind(2)
            // creates the file with 0777 & ~umask: set the umask so it appears with `mode` at
            // once (no window where the web server is refused). Single-threaded here.
            let previousMask = umask(~mode & 0o777)
            descriptor = FCGX_OpenSocket(path, backlog)
            umask(previousMask)
            guard descriptor >= 0 else { throw TransportStartError("cannot listen on \(path): \(Self.lastError)") }
            // Right after bind the path names this socket's file: remember which file that is.
            guard let file = CreatedSocketFile(path) else {
                throw TransportStartError("cannot stat \(path) after binding it: \(Self.lastError)")
            }
            createdFile = file
            // The web server runs as another user: the group (or everyone) must be able to connect.
            // Explicit too, in case the process umask had bits the mask above could not clear.
            guard chmod(path, mode) == 0 else {
                throw TransportStartError("cannot chmod \(String(mode, radix: 8)) \(path): \(Self.lastError)")
            }
        }
    }

    /// Stops accepting on a socket this process opened: on Linux, `shutdown(2)` on a listening
    /// socket makes every blocked and future `accept(2)` fail with EINVAL, so libfcgi's
    /// `FCGX_Accept_r` returns -1 in each worker. An inherited socket is never shut down (SPEC 7):
    /// the shutdown would act on the socket itself, shared with the process that serves it next
    /// (spawn-fcgi's supervisor child, systemd's next start), whose every accept would then fail.
    /// Its workers waiting in accept are left there (`WorkerPool.stop`) and end with the process.
    func shutDownIfOwned() {
        guard !isInherited else { return }
        _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
        createdFile?.removeIfStillThere()
    }

    private static var lastError: String { String(cString: strerror(errno)) }
}

/// The transport could not start (socket, permissions, threads): one line for the operator.
public struct TransportStartError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
