import LiveActivityDomain
import LiveActivityFigures

/// The last run, decoded once from any engine's row. Its outcome is kept as stored, whatever
/// text it is (`RunOutcome`): the figures show what the history holds.
extension RecordedRun {
    /// From a row of start, duration and outcome.
    public init(stored row: some StoredRow) {
        self.init(
            startedAt: row.int(0), durationMilliseconds: row.int(1), outcome: row.text(2).map(RunOutcome.init(stored:)))
    }
}
