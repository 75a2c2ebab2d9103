#if canImport(Glibc)
    import Glibc
#endif

/// The unix socket file a process bound, known by device and inode: a successor that bound the
/// same path later (libfcgi unlinks a stale file and rebinds) owns a different file there, which
/// this process's stop must leave alone or the successor is unreachable.
struct CreatedSocketFile: Sendable {
    let path: String
    private let device: dev_t
    private let inode: ino_t

    /// Records the file `path` names now; nil when it cannot be stat'ed.
    init?(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        self.path = path
        device = status.st_dev
        inode = status.st_ino
    }

    /// Unlinks `path` only while it still names the file this process made. A successor binding
    /// between the check and the unlink could still lose its file; the window is that of two
    /// system calls during a stop, where before it was the whole rest of this process's life.
    func removeIfStillThere() {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_dev == device, status.st_ino == inode else { return }
        // Best effort: a file left behind is unlinked by the next process's bind (libfcgi).
        _ = unlink(path)
    }
}
