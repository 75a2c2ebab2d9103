import LiveActivityDomain
import LiveActivityFigures

extension StatsReport.SweepBucket {
    /// One bucket of the runs of one app and kind, from a row of the bucket's number
    /// (`started_at / width`), push kind, runs, most active, sent, failed and app: each engine
    /// sums its own way. A kind this build does not know (a newer build's) is left out, as
    /// `WithheldWakes` does; an app's name is kept as stored, shown escaped.
    public init?(stored row: some StoredRow, width: Int64) {
        guard let kind = row.text(1).flatMap(PushKind.init(name:)) else { return nil }
        self.init(
            start: row.int(0) * width, runs: row.int(2), active: row.int(3), sent: row.int(4), failed: row.int(5), kind: kind,
            app: AppName(trusted: row.text(6) ?? ""))
    }
}
