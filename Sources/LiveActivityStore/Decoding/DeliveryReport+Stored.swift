import LiveActivityDomain
import LiveActivityFigures

/// A delivery window, decoded once from any engine's row: both engines select the same columns
/// in the same order and differ only in how they sum them. A kind this build does not know (a
/// newer build's) is left out, as `WithheldWakes` does; a type it does not know is kept as stored
/// (`StoredActivityType`: the wakes' windows show it), and an app's name too, shown escaped.
extension DeliveryReport.Window {
    /// From a row of activity type, kind, delivered, acked, registration hours, the delay sum,
    /// the delay buckets (`AckDelayBuckets.count` of them, in order) and app.
    public init?(stored row: some StoredRow) {
        guard let kind = row.text(1).flatMap(PushKind.init(name:)) else { return nil }
        self.init(
            activityType: StoredActivityType(stored: row.text(0) ?? ""), kind: kind,
            app: AppName(trusted: row.text(Int32(AckDelayBuckets.count + 6)) ?? ""))
        delivered = row.int(2)
        acked = row.int(3)
        registrationHours = row.int(4)
        delaySumMilliseconds = row.int(5)
        delayBuckets = (0..<AckDelayBuckets.count).map { row.int(Int32($0 + 6)) }
    }
}
