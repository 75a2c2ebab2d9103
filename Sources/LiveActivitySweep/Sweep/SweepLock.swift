import Foundation

/// The exclusive, non-blocking lock next to the database that keeps overlapping cron runs from
/// pushing twice (SPEC section 5 step 1). `flock` is released by the kernel when the process dies,
/// so a killed sweep never leaves a stale lock behind.
public final class SweepLock {
    private let descriptor: Int32
    public let path: String

    /// The lock file could not be opened (a missing or read-only folder, permissions).
    public struct OpenError: Error, CustomStringConvertible {
        public let path: String
        /// `strerror` of the failed open(2).
        public let reason: String

        public var description: String { "cannot open the sweep lock \(path): \(reason)" }
    }

    /// Takes the lock, or returns nil when another process holds it.
    public init?(databasePath: String) throws(OpenError) {
        path = databasePath + ".sweep-lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o660)
        guard fd >= 0 else { throw OpenError(path: path, reason: String(cString: strerror(errno))) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        descriptor = fd
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
