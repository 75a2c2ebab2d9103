import Glibc
import LiveActivityDomain

/// Who holds a `flock` on a file: the kernel's `/proc/locks` lines for its device and inode,
/// with each holder's effective uid from `/proc/PID/status`.
enum LockHolders {
    struct Holder {
        let pid: Int32
        /// nil when the process ended meanwhile.
        let uid: UInt32?
    }

    /// The processes holding a FLOCK on the file (device, inode); empty when none can be found.
    static func of(device: UInt64, inode: UInt64) -> [Holder] {
        guard let locks = try? FileText.read("/proc/locks") else { return [] }
        // /proc/locks names the device as hex major:minor (glibc's encoding of st_dev).
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & 0xffff_f000)
        let minor = (device & 0xff) | ((device >> 12) & 0xffff_ff00)
        let file = "\(hex(major)):\(hex(minor)):\(inode)"
        var holders: [Holder] = []
        // "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"; a waiter's line has "->" before FLOCK.
        for line in locks.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[1] == "FLOCK", let pid = Int32(fields[4]),
                fields[5] == file
            else { continue }
            holders.append(Holder(pid: pid, uid: effectiveUID(pid)))
        }
        return holders
    }

    private static func effectiveUID(_ pid: Int32) -> UInt32? {
        guard let status = try? FileText.read("/proc/\(pid)/status"),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Uid:") })
        else { return nil }
        // "Uid: real effective saved filesystem"
        let ids = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        return ids.count > 2 ? UInt32(ids[2]) : nil
    }
}

/// `value` in lower-case hex, at least two digits (printf's `%02x`).
private func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return digits.count < 2 ? "0" + digits : digits
}
