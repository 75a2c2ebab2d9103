import Foundation

/// One line per event on stderr, which cron redirects and nginx collects (SPEC section 7).
/// Callers pass tokens only as `PushToken.logPrefix`.
public enum Log {
    public static func line(_ program: String, _ message: String) {
        let stamp = ISO8601DateFormatter.string(
            from: Date(), timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withInternetDateTime])
        FileHandle.standardError.write(Data("\(stamp) \(program): \(message)\n".utf8))
    }
}
