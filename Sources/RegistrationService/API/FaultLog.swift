import LiveActivityStore
import SystemSupport

/// What the responder tells operators about conditions that repeat per request, shared by its
/// workers, so that log volume follows time, not traffic (SPEC 7). Any repeated condition (the
/// cap reached, a refused environment parameter, an internal error) is one line when first seen
/// and at most one a minute after that, saying how many were not written. A database fault
/// also gets one line when it is over. A full disk must not be filled further by a line per
/// refused request, nor a flood of refusals fill it.
///
/// It decides what to say; the caller writes it (so this stays `Sendable` without a closure).
/// Every `now` is on the monotonic clock (`MonotonicClock`): a period is how long passed, which
/// a step of the wall clock must not change (backwards it silenced a condition for as long as
/// the clock went back; forwards it let a line through early).
public final class FaultLog: Sendable {
    private struct State {
        /// The database fault now on, if any.
        var cause: String?
        /// Requests failed since the fault began.
        var failedInFault = 0
        /// Per condition: when its line was last written, and how many were not written since.
        var lastLineAt: [String: Int64] = [:]
        var unwritten: [String: Int] = [:]
        var lastAllClearAt: Int64?
        var reportedStale: Set<String> = []

        /// The line for one more occurrence of `condition`, or nil when it was said recently.
        mutating func limited(_ condition: String, line: String, now: Int64, every period: Int64) -> String? {
            if let last = lastLineAt[condition], now - last < period {
                unwritten[condition, default: 0] += 1
                return nil
            }
            let skipped = unwritten[condition] ?? 0
            lastLineAt[condition] = now
            unwritten[condition] = 0
            return skipped > 0 ? "\(line) (and \(skipped) more since the last line)" : line
        }
    }

    private let state = LockedValue(State())
    private let repeatMilliseconds: Int64

    /// `repeatSeconds`: how often a fault (or its all-clear) may be logged again. A nearly full
    /// disk alternates failures and successes; this keeps that to two lines per period.
    public init(repeatSeconds: Int = 60) {
        repeatMilliseconds = Int64(repeatSeconds) * 1000
    }

    /// A request failed for the database fault `cause`; returns the line to log, or nil when it
    /// was said recently.
    public func failed(cause: String, line: String, now: Int64) -> String? {
        state.withLock { state in
            state.cause = cause
            state.failedInFault += 1
            return state.limited("database: " + cause, line: line, now: now, every: repeatMilliseconds)
        }
    }

    /// `condition` (a fixed name, never request text) happened once more; returns `line` to log,
    /// or nil when this condition was logged less than a period ago.
    public func repeated(_ condition: String, line: String, now: Int64) -> String? {
        state.withLock { $0.limited(condition, line: line, now: now, every: repeatMilliseconds) }
    }

    /// A request used the database successfully; returns the all-clear line when a fault was on
    /// (at most one per period).
    public func succeeded(now: Int64) -> String? {
        state.withLock { state in
            guard let cause = state.cause else { return nil }
            let failed = state.failedInFault
            state.cause = nil
            state.failedInFault = 0
            if let last = state.lastAllClearAt, now - last < repeatMilliseconds { return nil }
            state.lastAllClearAt = now
            return "database usable again after \(cause): \(failed) requests failed meanwhile"
        }
    }

    /// True the first time any worker reports a connection gone stale for `key` (a file that
    /// vanished), so the process says it once.
    public func firstReport(ofStale key: String) -> Bool {
        state.withLock { $0.reportedStale.insert(key).inserted }
    }
}
