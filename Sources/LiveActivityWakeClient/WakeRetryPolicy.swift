/// How often and how long the client retries a 429 or a 503 before it throws
/// ``WakeClientError/rateLimited(retryAfter:attempts:)`` or
/// ``WakeClientError/unavailable(reason:retryAfter:attempts:)``.
///
/// A `Retry-After` in seconds is honoured: the client never retries sooner than it says, and
/// when it says more than ``maximumWait`` the client does not wait at all but throws at once,
/// with the value, so the app can try again then (a background wake has about 30 seconds; nginx
/// asks a rate-limited client to wait 60). Without a `Retry-After` (the backend's own 503 when
/// its registration cap is reached) the client waits ``firstWait``, doubling each time, never
/// more than ``maximumWait``. Other answers and transport failures are not retried.
public struct WakeRetryPolicy: Sendable, Hashable {
    /// Requests sent at most, the first one included (1: never retry).
    public var maximumAttempts: Int
    /// The longest the client waits before one retry, in seconds.
    public var maximumWait: Double
    /// The wait before the first retry when the answer has no `Retry-After`, in seconds.
    public var firstWait: Double

    /// Attempts below 1 mean 1; waits are bounded to 0 through an hour (a NaN is 0).
    public init(maximumAttempts: Int = 3, maximumWait: Double = 10, firstWait: Double = 1) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.maximumWait = Self.bounded(maximumWait)
        self.firstWait = Self.bounded(firstWait)
    }

    private static func bounded(_ seconds: Double) -> Double {
        seconds.isNaN ? 0 : min(max(0, seconds), 3600)
    }

    /// Three attempts, waits of at most 10 seconds.
    public static let standard = WakeRetryPolicy()
    /// One attempt: the caller decides.
    public static let never = WakeRetryPolicy(maximumAttempts: 1)

    /// The seconds to wait before attempt `attempt + 1` after a retryable answer with
    /// `retryAfter`, or nil when the client should stop and throw.
    func wait(after attempt: Int, retryAfter: Int?) -> Double? {
        guard attempt < maximumAttempts else { return nil }
        if let retryAfter {
            let seconds = Double(retryAfter)
            return seconds <= maximumWait ? seconds : nil
        }
        var wait = firstWait
        for _ in 1..<attempt { wait *= 2 }
        return min(wait, maximumWait)
    }
}
