import LiveActivityDomain
import LiveActivityFigures

/// A fault's totals, decoded once from any engine's row: the lifetime totals as kept, or the
/// history's sums, in the same columns on every engine. An environment, push kind or kind of
/// fault this build does not know (a newer build's) is left out, as `WithheldWakes` does; an
/// app's name is kept as stored, shown escaped.
extension StatsReport.FaultTotals {
    /// From a row of environment, kind of push (empty for every kind), kind of fault, reason,
    /// runs, pushes, the last time and app (a total as kept, or the history's sums).
    public init?(stored row: some StoredRow) {
        let pushKindName = row.text(1) ?? ""
        let pushKind = PushKind(name: pushKindName)
        guard let environment = row.text(0).flatMap(APNsEnvironment.init(rawValue:)),
            pushKind != nil || pushKindName.isEmpty, let kind = row.text(2).flatMap(SweepFault.Kind.init(rawValue:))
        else { return nil }
        self.init(
            environment: environment, pushKind: pushKind, kind: kind, reason: row.text(3) ?? "", runs: row.int(4),
            pushes: row.int(5), lastAt: row.int(6), app: AppName(trusted: row.text(7) ?? ""))
    }
}
