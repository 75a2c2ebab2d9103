import LiveActivityDomain
import LiveActivityFigures

/// The figures of the targets now, decoded once from any engine's row. A kind, type or
/// environment this build does not know (a newer build's) is left out, as `WithheldWakes` does:
/// no figure can name it as a value. An app's name is kept as stored, shown escaped.
extension StatsReport.Group {
    /// The columns of `target_groups` the decoder reads, in its order (the count last).
    public static let storedColumns = "push_kind, activity_type, environment, app, n"

    public init?(stored row: some StoredRow) {
        guard let kind = row.text(0).flatMap(PushKind.init(name:)),
            let type = row.text(1).flatMap(ActivityType.init(rawValue:)),
            let environment = row.text(2).flatMap(APNsEnvironment.init(rawValue:))
        else { return nil }
        self.init(
            activityType: type, environment: environment, count: row.int(4), kind: kind,
            app: AppName(trusted: row.text(3) ?? ""))
    }
}

extension StatsReport.BackingOff {
    /// The columns of `push_targets` the decoder reads before the count, in its order.
    public static let storedColumns = "environment, push_kind"

    public init?(stored row: some StoredRow) {
        guard let environment = row.text(0).flatMap(APNsEnvironment.init(rawValue:)),
            let kind = row.text(1).flatMap(PushKind.init(name:))
        else { return nil }
        self.init(environment: environment, kind: kind, count: row.int(2))
    }
}

extension StatsReport.PushTotals {
    /// From a row of push kind, sent, failed, removed and app (a total as kept, or the history's
    /// sums). A kind this build does not know (a newer build's) is left out.
    public init?(stored row: some StoredRow) {
        guard let kind = row.text(0).flatMap(PushKind.init(name:)) else { return nil }
        self.init(
            kind: kind, sent: row.int(1), failed: row.int(2), removed: row.int(3), app: AppName(trusted: row.text(4) ?? ""))
    }
}
