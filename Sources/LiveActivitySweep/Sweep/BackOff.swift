/// When a registration is tried again after failures in a row (SPEC 5): 429 TooManyRequests, 5xx,
/// timeouts and connection failures wait min(interval, 60 s x 2^(failures-1)), so a device or a
/// host in trouble is not pushed every minute for 8 hours.
public enum BackOff {
    public static let firstDelayMilliseconds: Int64 = 60_000

    /// The wait after the `failures`-th failure in a row (1 for the first), in milliseconds.
    public static func delay(afterFailures failures: Int, interval: Int64) -> Int64 {
        let doublings = min(max(failures, 1) - 1, 30)
        return min(interval, firstDelayMilliseconds << Int64(doublings))
    }
}
