#if canImport(Glibc)
    import Glibc
#endif

/// Where this host's last sweep stood on two clocks: the one due times and expiry go by (the
/// database server's on PostgreSQL, the host's on SQLite) and the host's time since boot, which
/// no clock step moves. Kept in the sweep's folder, so the next run of this host can tell a step
/// of the clock (NTP fixing a wrong one, a failover to a standby whose clock is off) from time
/// that passed: a forward step of 8 hours would otherwise expire every registration at once.
public struct ClockMark: Sendable, Equatable {
    /// `/proc/sys/kernel/random/boot_id`: times since boot compare within one boot only.
    public var bootID: String
    /// `CLOCK_BOOTTIME` in ms (it counts suspended time too, as the wall clock does).
    public var sinceBootMilliseconds: Int64
    /// The sweep's clock at the same moment, Unix ms.
    public var clockMilliseconds: Int64

    public init(bootID: String, sinceBootMilliseconds: Int64, clockMilliseconds: Int64) {
        self.bootID = bootID
        self.sinceBootMilliseconds = sinceBootMilliseconds
        self.clockMilliseconds = clockMilliseconds
    }

    /// The mark for now, `clock` being the sweep's clock read now; nil where the boot id cannot be read.
    public static func now(clock: Int64) -> ClockMark? {
        let descriptor = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = read(descriptor, &bytes, bytes.count)
        guard count > 0 else { return nil }
        let bootID = String(decoding: bytes[0..<count], as: UTF8.self).filter { $0.isHexDigit || $0 == "-" }
        var spec = timespec()
        clock_gettime(CLOCK_BOOTTIME, &spec)
        return ClockMark(
            bootID: bootID, sinceBootMilliseconds: Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000,
            clockMilliseconds: clock)
    }

    /// Since `earlier`: how much time passed (by the boot clock) and how far the sweep's clock
    /// moved beyond that (positive: it stepped forward); nil across a reboot.
    public func step(since earlier: ClockMark) -> (elapsed: Int64, forward: Int64)? {
        guard bootID == earlier.bootID, !bootID.isEmpty else { return nil }
        let elapsed = sinceBootMilliseconds.subtractingSaturated(earlier.sinceBootMilliseconds)
        guard elapsed >= 0 else { return nil }
        return (elapsed, clockMilliseconds.subtractingSaturated(earlier.clockMilliseconds).subtractingSaturated(elapsed))
    }

    /// The file's one line: `v1 <boot id> <since boot> <clock>`.
    var line: String { "v1 \(bootID) \(sinceBootMilliseconds) \(clockMilliseconds)\n" }

    init?(line: String) {
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        guard fields.count == 4, fields[0] == "v1", let since = Int64(fields[2]), let clock = Int64(fields[3]) else {
            return nil
        }
        self.init(bootID: fields[1], sinceBootMilliseconds: since, clockMilliseconds: clock)
    }

    /// The file in the sweep's folder.
    static let fileName = "clock-mark"

    /// The mark the last good run of this host left in `folder`; nil when none (or not the sweep's own).
    public static func load(from folder: SweepFolder) -> ClockMark? {
        let descriptor = folder.open(fileName, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid(), info.st_size < 256
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: 256)
        let count = read(descriptor, &bytes, bytes.count)
        guard count > 0 else { return nil }
        return ClockMark(line: String(decoding: bytes[0..<count], as: UTF8.self))
    }

    /// Keeps the mark in `folder` (written beside, then renamed over the old one); a failure
    /// only costs the next run its check.
    public func save(in folder: SweepFolder) {
        let temporary = Self.fileName + ".new"
        unlinkat(folder.descriptor, temporary, 0)
        let descriptor = folder.open(temporary, O_WRONLY | O_CREAT | O_EXCL)
        guard descriptor >= 0 else { return }
        let bytes = Array(line.utf8)
        let written = write(descriptor, bytes, bytes.count) == bytes.count
        close(descriptor)
        if !written || renameat(folder.descriptor, temporary, folder.descriptor, Self.fileName) != 0 {
            unlinkat(folder.descriptor, temporary, 0)
        }
    }
}

/// The sweep refused to expire registrations after its clock stepped forward (one line, exit 1).
public struct ClockStepRefusal: Error, CustomStringConvertible {
    public let description: String
}
