/// When a registration is tried again after failures in a row (SPEC 5): 429 TooManyRequests, 5xx,
/// timeouts and connection failures wait min(interval, 60 s x 2^(failures-1)), so a device or a
/// host in trouble is not pushed every minute for 8 hours; a row the mass-deletion guard holds
/// waits interval x 2^(failures-1), so junk is not pushed every interval either.
public enum BackOff {
    public static let firstDelayMilliseconds: Int64 = 60_000
    /// The longest a held row waits: a week, past any registration's lifetime.
    public static let longestHeldDelayMilliseconds: Int64 = 7 * 86_400_000

    /// The wait after the `failures`-th failure in a row (1 for the first), in milliseconds.
    public static func delay(afterFailures failures: Int, interval: Int64) -> Int64 {
        let doublings = min(max(failures, 1) - 1, 30)
        return min(interval, firstDelayMilliseconds << Int64(doublings))
    }

    /// The wait of a held row after its `failures`-th hold in a row, in milliseconds.
    public static func heldDelay(afterFailures failures: Int, interval: Int64) -> Int64 {
        let doublings = min(max(failures, 1) - 1, 20)
        return min(longestHeldDelayMilliseconds, max(1, interval) << Int64(doublings))
    }
}
