import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One line per event, time-stamped (ISO 8601 UTC) and naming the program (SPEC section 7): cron
/// and spawn-fcgi put stdout and stderr in one file, where a line without a time is lost.
/// Callers pass tokens only as `PushToken.logPrefix`, and each value from outside as
/// `OutsideText.line` (escaped and cut to its own bound).
public enum Log {
    /// The longest message a line holds; beyond it, `…`.
    public static let maximumMessage = 2000

    private static let droppedLines = Atomic<Int>(0)

    /// Lines this process could not write (a full disk, a closed stderr): dropped, never fatal.
    public static var dropped: Int { droppedLines.load(ordering: .relaxed) }

    /// Writes `message` as one line on stderr. A line that cannot be written is dropped and
    /// counted: a full disk must cost the log, never the program (Foundation's
    /// `FileHandle.write` traps on a failed write, which made "disk full" fatal).
    public static func line(_ program: String, _ message: String) {
        if !write(stamped(program, message) + "\n", to: 2) { droppedLines.add(1, ordering: .relaxed) }
    }

    /// Writes all of `text` to `descriptor` with write(2), retrying a write a signal cut short;
    /// false when the descriptor refused it (ENOSPC, EBADF, EPIPE...).
    @discardableResult
    public static func write(_ text: String, to descriptor: Int32) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                #if canImport(Glibc)
                    let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                #else
                    let written = Darwin.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                #endif
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return false
                }
            }
            return true
        }
    }

    /// `2026-12-01T02:56:42Z program: message`. The message is escaped once more as a whole, so
    /// that no text a caller let through unescaped (a library's error message quoting a name
    /// from a planted database, say) can start a line of its own.
    public static func stamped(_ program: String, _ message: String) -> String {
        "\(UTCTime(milliseconds: Clock().now()).iso8601) \(program): \(OutsideText.message(message, limit: maximumMessage))"
    }
}
