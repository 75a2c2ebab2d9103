import Glibc
import LiveActivityDomain

/// The exclusive, non-blocking lock in the sweep's own folder that keeps overlapping cron runs
/// from pushing twice (SPEC section 5 step 1). `flock` is released by the kernel when the process
/// dies, so a killed sweep never leaves a stale lock behind.
///
/// Only the sweep's user can reach the folder (`SweepFolder`), and the file is opened without
/// following a link and checked to be that user's own. When the lock is held, the holder says
/// which case it is: a process of this user is another sweep (nothing to do); any other holder
/// is a fault, since it would stop every sweep (SPEC 7).
public final class SweepLock {
    private let descriptor: Int32
    public let path: String

    /// The lock could not be taken or trusted: one line for the operator.
    public struct Fault: Error, CustomStringConvertible {
        public let description: String
    }

    /// Takes the lock in `folder`, or returns nil when another sweep of this user holds it.
    public init?(in folder: SweepFolder) throws(Fault) {
        path = folder.file("lock")
        // From the folder's own descriptor, never its path again (SweepFolder says why).
        let fd = folder.open("lock", O_RDWR | O_CREAT)
        guard fd >= 0 else {
            throw Fault(description: "cannot open the sweep lock \(path): \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() else {
            close(fd)
            throw Fault(
                description: "the sweep lock \(path) is not a file of this sweep's user (uid \(geteuid())); remove it")
        }
        // A holder that was just finishing gets one more try before it is asked who it is; one
        // gone by the time it is looked up (none in /proc/locks, or its process ended) was letting
        // go, not a fault, so the lock is tried again (a sweep started beside another one, which
        // ended between the two, was refused as held by "a process it cannot identify").
        var holders: [LockHolders.Holder] = []
        for attempt in 0..<Self.attempts {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 {
                descriptor = fd
                return
            }
            if attempt > 0 {
                holders = LockHolders.of(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
                if !holders.isEmpty, holders.allSatisfy({ $0.uid != nil }) { break }
            }
            if attempt < Self.attempts - 1 { usleep(50_000) }
        }
        close(fd)
        if !holders.isEmpty, holders.allSatisfy({ $0.uid == geteuid() }) { return nil }
        let who =
            holders.isEmpty
            ? "a process this sweep cannot identify"
            : holders.map { "pid \($0.pid) of uid \($0.uid.map(String.init) ?? "?")" }.joined(separator: ", ")
        throw Fault(
            description:
                "the sweep lock \(path) is held by \(who), not a sweep of this user (uid \(geteuid())): no push goes out until it lets go"
        )
    }

    /// Tries of the lock, 50 ms apart, before a holder found in none of them is a fault.
    private static let attempts = 4

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
