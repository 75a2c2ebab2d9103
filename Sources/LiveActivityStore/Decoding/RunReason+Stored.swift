import LiveActivityDomain
import LiveActivityFigures

/// The reasons runs recorded, decoded once from any engine's row. A push kind this build does
/// not know (a newer build's) is left out, as `WithheldWakes` does.
extension RunReason {
    /// From a row of category (`failed`, `removed`; any other read as `failed`), push kind,
    /// reason and count (a sum: each engine sums its own way).
    public init?(stored row: some StoredRow) {
        guard let kind = row.text(1).flatMap(PushKind.init(name:)) else { return nil }
        self.init(
            category: row.text(0).flatMap(Category.init(rawValue:)) ?? .failed, kind: kind, reason: row.text(2) ?? "",
            count: row.int(3))
    }
}

extension StatsReport.ReasonCount {
    /// From a row of reason, count and push kind.
    public init?(stored row: some StoredRow) {
        guard let kind = row.text(2).flatMap(PushKind.init(name:)) else { return nil }
        self.init(reason: row.text(0) ?? "", count: row.int(1), kind: kind)
    }
}
