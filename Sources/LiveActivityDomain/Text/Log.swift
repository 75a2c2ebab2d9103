import Foundation

/// One line per event, time-stamped (ISO 8601 UTC) and naming the program (SPEC section 7): cron
/// and spawn-fcgi put stdout and stderr in one file, where a line without a time is lost.
/// Callers pass tokens only as `PushToken.logPrefix`.
public enum Log {
    /// Writes `message` as one line on stderr.
    public static func line(_ program: String, _ message: String) {
        FileHandle.standardError.write(Data((stamped(program, message) + "\n").utf8))
    }

    /// `2026-12-01T02:56:42Z program: message`.
    public static func stamped(_ program: String, _ message: String) -> String {
        "\(UTCTime(milliseconds: Clock().now()).iso8601) \(program): \(message)"
    }
}
