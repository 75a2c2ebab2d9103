import Synchronization

/// What the responder tells operators about database faults, shared by its workers: one line
/// when a fault starts, at most one a minute while it lasts (saying how many requests it cost),
/// and one when it is over. A full disk must not be filled further by a line per refused request.
///
/// It decides what to say; the caller writes it (so this stays `Sendable` without a closure).
public final class FaultLog: Sendable {
    private struct State {
        var cause: String?
        var lastLoggedAt: Int64 = 0
        var failedSinceLine = 0
        var failedInFault = 0
        var reportedReplacedFiles: Set<FileIdentity> = []
    }

    private let state = Mutex(State())
    private let repeatMilliseconds: Int64

    /// `repeatSeconds`: how often a fault that lasts is logged again.
    public init(repeatSeconds: Int = 60) {
        repeatMilliseconds = Int64(repeatSeconds) * 1000
    }

    /// A request failed for `cause`; returns the line to log, or nil when it was said recently.
    public func failed(cause: String, line: String, now: Int64) -> String? {
        state.withLock { state in
            state.failedInFault += 1
            state.failedSinceLine += 1
            if state.cause == cause && now - state.lastLoggedAt < repeatMilliseconds { return nil }
            let repeated = state.cause == cause && state.failedSinceLine > 1
            let text = repeated ? "\(line) (\(state.failedSinceLine) requests failed since the last line)" : line
            state.cause = cause
            state.lastLoggedAt = now
            state.failedSinceLine = 0
            return text
        }
    }

    /// A request used the database successfully; returns the all-clear line when a fault was on.
    public func succeeded() -> String? {
        state.withLock { state in
            guard let cause = state.cause else { return nil }
            let text = "database usable again after \(cause): \(state.failedInFault) requests failed meanwhile"
            state.cause = nil
            state.failedInFault = 0
            state.failedSinceLine = 0
            return text
        }
    }

    /// True the first time any worker reports that `file` vanished, so the process says it once.
    public func firstReport(ofReplaced file: FileIdentity?) -> Bool {
        guard let file else { return true }
        return state.withLock { $0.reportedReplacedFiles.insert(file).inserted }
    }
}
