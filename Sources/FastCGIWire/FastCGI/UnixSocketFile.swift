#if canImport(Glibc)
    import Glibc
#endif

/// A listening unix socket made at a path with a mode, without touching the umask. The umask is
/// the process's, shared by every thread: set around a bind, it was inherited by whatever another
/// thread spawned meanwhile (a test's `swift package` wrote its manifest program without an
/// execute bit and could not run it). bind(2) makes the file with 0777 & ~umask; the mode is set
/// before listen(2), and until listen every connect is refused whatever the mode said.
enum UnixSocketFile {
    /// The descriptor of a socket listening at `path` with `mode`, and the file it made. A stale
    /// file at `path` is unlinked first, as libfcgi's `FCGX_OpenSocket` does (os_unix.c).
    static func listen(at path: String, mode: mode_t, backlog: Int32) throws(TransportStartError) -> (
        descriptor: Int32, file: CreatedSocketFile
    ) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw TransportStartError("cannot listen on \(path): the path is longer than a unix socket's 107 bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { sunPath in
            sunPath.copyBytes(from: bytes)
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TransportStartError("cannot listen on \(path): \(lastError)") }
        func fail(_ what: String) -> TransportStartError {
            let error = TransportStartError("\(what) \(path): \(lastError)")
            close(descriptor)
            return error
        }
        // Best effort, as libfcgi's: a file that cannot be removed makes the bind fail with a reason.
        _ = unlink(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else { throw fail("cannot listen on") }
        // Right after bind the path names this socket's file: remember which file that is.
        guard let file = CreatedSocketFile(path) else { throw fail("cannot stat after binding") }
        // The web server runs as another user: the group (or everyone) must be able to connect.
        guard chmod(path, mode) == 0 else {
            let error = fail("cannot chmod \(String(mode, radix: 8))")
            file.removeIfStillThere()
            throw error
        }
        guard Glibc.listen(descriptor, backlog) == 0 else {
            let error = fail("cannot listen on")
            file.removeIfStillThere()
            throw error
        }
        return (descriptor, file)
    }

    private static var lastError: String { String(cString: strerror(errno)) }
}
