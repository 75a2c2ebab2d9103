import Foundation
import LiveActivityCore

/// The exclusive, non-blocking lock next to the database that keeps overlapping cron runs from
/// pushing twice (SPEC section 5 step 1). `flock` is released by the kernel when the process dies,
/// so a killed sweep never leaves a stale lock behind.
public final class SweepLock {
    private let descriptor: Int32
    public let path: String

    /// Takes the lock, or returns nil when another process holds it.
    public init?(databasePath: String) throws {
        path = databasePath + ".sweep-lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o660)
        guard fd >= 0 else {
            throw SQLiteError(code: 14, message: "cannot open the sweep lock \(path): \(String(cString: strerror(errno)))")
        }
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
