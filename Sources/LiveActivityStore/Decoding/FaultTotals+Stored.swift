import LiveActivityFigures

/// A fault's totals, decoded once from any engine's row: the lifetime totals as kept, or the
/// history's sums, in the same columns on every engine.
extension StatsReport.FaultTotals {
    /// From a row of environment, kind of push, kind of fault, reason, runs, pushes, the last
    /// time and app (a total as kept, or the history's sums).
    public init(stored row: some StoredRow) {
        self.init(
            environment: row.text(0) ?? "", pushKind: row.text(1) ?? "", kind: row.text(2) ?? "",
            reason: row.text(3) ?? "", runs: row.int(4), pushes: row.int(5), lastAt: row.int(6), app: row.text(7) ?? "")
    }
}
