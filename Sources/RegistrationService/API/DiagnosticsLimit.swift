import LiveActivityDomain
import SystemSupport

/// The responder's own limit on `/wakeup/diagnostics` (SPEC 3: a few a minute per token), beside
/// nginx's per-client one: the answer reads a registration's attempts, which a loop in an app
/// must not turn into a read per frame. Shared by the workers of a process, as `FaultLog` is;
/// every `now` is on the monotonic clock, so a step of the wall clock neither lifts nor extends
/// it. Held in memory only (never logged): a restart forgets it, which costs nothing.
public final class DiagnosticsLimit: Sendable {
    /// Requests a registration key may make per `window`.
    public let allowed: Int
    /// The window, ms.
    public let window: Int64
    /// Keys remembered at most: past it, keys whose window has passed are forgotten, and if a
    /// flood of distinct tokens leaves more, all are (that flood is nginx's limit's business).
    public let capacity: Int

    /// When each key's last requests came (at most `allowed`, oldest first).
    private let seen = LockedValue([RegistrationKey: [Int64]]())

    /// Four a minute: enough for a person tapping "why is this stale?" again, not for a loop.
    public init(allowed: Int = 4, window: Int64 = 60_000, capacity: Int = 10_000) {
        self.allowed = max(1, allowed)
        self.window = max(1, window)
        self.capacity = max(1, capacity)
    }

    /// Counts a request of `key` at `now` (monotonic ms) and returns nil when it may be answered,
    /// else the whole seconds until it may (at least 1), without counting it.
    public func admit(_ key: RegistrationKey, now: Int64) -> Int? {
        seen.withLock { seen in
            var times = seen[key, default: []].filter { now - $0 < window }
            if times.count >= allowed {
                let wait = times[times.count - allowed] + window - now
                seen[key] = times
                return max(1, Int((wait + 999) / 1000))
            }
            times.append(now)
            seen[key] = times
            if seen.count > capacity {
                seen = seen.filter { _, times in times.contains { now - $0 < window } }
                if seen.count > capacity { seen = [key: times] }
            }
            return nil
        }
    }
}
