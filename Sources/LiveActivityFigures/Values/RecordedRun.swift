import LiveActivityDomain

/// A sweep run as the run history keeps it: the figures' "last run".
public struct RecordedRun: Sendable, Equatable {
    /// Unix ms.
    public var startedAt: Int64
    public var durationMilliseconds: Int64
    /// `ok`, or what stopped it (the summary's outcome); nil where none was stored.
    public var outcome: RunOutcome?

    public init(startedAt: Int64, durationMilliseconds: Int64, outcome: RunOutcome?) {
        self.startedAt = startedAt
        self.durationMilliseconds = durationMilliseconds
        self.outcome = outcome
    }
}
