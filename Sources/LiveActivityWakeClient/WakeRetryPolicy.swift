/// How often and how long the client retries a 429 or a 503 before it throws
/// ``WakeClientError/rateLimited(retryAfter:attempts:)`` or
/// ``WakeClientError/unavailable(reason:retryAfter:attempts:)``.
///
/// A `Retry-After` in seconds is honoured: the client never retries sooner than it says, and
/// when it says more than ``maximumWait`` the client does not wait at all but throws at once,
/// with the value, so the app can try again then (a background wake has about 30 seconds; nginx
/// asks a rate-limited client to wait 60). Without a `Retry-After` (the backend's own 503 when
/// its registration cap is reached) the client waits ``firstWait``, doubling each time, never
/// more than ``maximumWait``. Each wait is then lengthened by a random share of up to
/// ``jitter`` (never past ``maximumWait``, never below a `Retry-After`): phones refused together,
/// by a backend that was down, do not all come back in the same second. Other answers and
/// transport failures are not retried.
public struct WakeRetryPolicy: Sendable, Hashable {
    /// Requests sent at most, the first one included (1: never retry).
    public var maximumAttempts: Int
    /// The longest the client waits before one retry, in seconds.
    public var maximumWait: Double
    /// The wait before the first retry when the answer has no `Retry-After`, in seconds.
    public var firstWait: Double
    /// The largest share by which a wait is lengthened at random (0.5: up to half again; 0: none).
    public var jitter: Double

    /// Attempts below 1 mean 1; waits are bounded to 0 through an hour (a NaN is 0), the jitter
    /// to 0 through 1.
    public init(maximumAttempts: Int = 3, maximumWait: Double = 10, firstWait: Double = 1, jitter: Double = 0.5) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.maximumWait = Self.bounded(maximumWait)
        self.firstWait = Self.bounded(firstWait)
        self.jitter = jitter.isNaN ? 0 : min(max(0, jitter), 1)
    }

    private static func bounded(_ seconds: Double) -> Double {
        seconds.isNaN ? 0 : min(max(0, seconds), 3600)
    }

    /// Three attempts, waits of at most 10 seconds, spread by up to half again.
    public static let standard = WakeRetryPolicy()
    /// One attempt: the caller decides.
    public static let never = WakeRetryPolicy(maximumAttempts: 1)

    /// The seconds to wait before attempt `attempt + 1` after a retryable answer with
    /// `retryAfter`, or nil when the client should stop and throw. `spread`, from 0 up to 1, is
    /// the random draw that lengthens it (0: the wait itself).
    func wait(after attempt: Int, retryAfter: Int?, spread: Double = 0) -> Double? {
        guard attempt < maximumAttempts else { return nil }
        let share = spread.isNaN ? 0 : min(max(0, spread), 1) * jitter
        if let retryAfter {
            let seconds = Double(retryAfter)
            guard seconds <= maximumWait else { return nil }
            // A Retry-After of 0 still spreads by a share of the first wait.
            return min(maximumWait, seconds + max(seconds, firstWait) * share)
        }
        var wait = firstWait
        for _ in 1..<attempt { wait *= 2 }
        return min(wait * (1 + share), maximumWait)
    }
}
