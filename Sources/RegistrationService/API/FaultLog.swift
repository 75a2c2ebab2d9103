import LiveActivityDomain
import LiveActivityStore
import Synchronization

/// What the responder tells operators about database faults, shared by its workers: one line
/// when a fault starts, at most one a minute while it lasts (saying how many requests it cost),
/// and one when it is over. A full disk must not be filled further by a line per refused request.
///
/// It decides what to say; the caller writes it (so this stays `Sendable` without a closure).
public final class FaultLog: Sendable {
    private struct State {
        /// The fault now on, if any.
        var cause: String?
        /// Requests failed since the fault began.
        var failedInFault = 0
        /// Per cause: when its line was last written, and how many failures were not written.
        var lastLineAt: [String: Int64] = [:]
        var unwritten: [String: Int] = [:]
        var lastAllClearAt: Int64?
        var reportedReplacedFiles: Set<FileIdentity> = []
    }

    private let state = Mutex(State())
    private let repeatMilliseconds: Int64

    /// `repeatSeconds`: how often a fault (or its all-clear) may be logged again. A nearly full
    /// disk alternates failures and successes; this keeps that to two lines per period.
    public init(repeatSeconds: Int = 60) {
        repeatMilliseconds = Int64(repeatSeconds) * 1000
    }

    /// A request failed for `cause`; returns the line to log, or nil when it was said recently.
    public func failed(cause: String, line: String, now: Int64) -> String? {
        state.withLock { state in
            state.cause = cause
            state.failedInFault += 1
            if let last = state.lastLineAt[cause], now - last < repeatMilliseconds {
                state.unwritten[cause, default: 0] += 1
                return nil
            }
            let unwritten = state.unwritten[cause] ?? 0
            state.lastLineAt[cause] = now
            state.unwritten[cause] = 0
            return unwritten > 0 ? "\(line) (and \(unwritten) more failures since the last line)" : line
        }
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

    /// True the first time any worker reports that `file` vanished, so the process says it once.
    public func firstReport(ofReplaced file: FileIdentity?) -> Bool {
        guard let file else { return true }
        return state.withLock { $0.reportedReplacedFiles.insert(file).inserted }
    }
}
