import Foundation

/// One line per event, time-stamped (ISO 8601 UTC) and naming the program (SPEC section 7): cron
/// and spawn-fcgi put stdout and stderr in one file, where a line without a time is lost.
/// Callers pass tokens only as `PushToken.logPrefix`, and each value from outside as
/// `OutsideText.line` (escaped and cut to its own bound).
public enum Log {
    /// The longest message a line holds; beyond it, `…`.
    public static let maximumMessage = 2000

    /// Writes `message` as one line on stderr.
    public static func line(_ program: String, _ message: String) {
        FileHandle.standardError.write(Data((stamped(program, message) + "\n").utf8))
    }

    /// `2026-12-01T02:56:42Z program: message`. The message is escaped once more as a whole, so
    /// that no text a caller let through unescaped (a library's error message quoting a name
    /// from a planted database, say) can start a line of its own.
    public static func stamped(_ program: String, _ message: String) -> String {
        "\(UTCTime(milliseconds: Clock().now()).iso8601) \(program): \(OutsideText.message(message, limit: maximumMessage))"
    }
}
