import LiveActivityDomain
import LiveActivityFigures

/// A delivery window, decoded once from any engine's row: both engines select the same columns
/// in the same order and differ only in how they sum them.
extension DeliveryReport.Window {
    /// From a row of activity type, kind, delivered, acked, registration hours, the delay sum,
    /// the delay buckets (`AckDelayBuckets.count` of them, in order) and app.
    public init(stored row: some StoredRow) {
        self.init(
            activityType: row.text(0) ?? "", kind: row.text(1) ?? "", app: row.text(Int32(AckDelayBuckets.count + 6)) ?? "")
        delivered = row.int(2)
        acked = row.int(3)
        registrationHours = row.int(4)
        delaySumMilliseconds = row.int(5)
        delayBuckets = (0..<AckDelayBuckets.count).map { row.int(Int32($0 + 6)) }
    }
}
