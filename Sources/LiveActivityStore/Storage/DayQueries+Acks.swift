import LiveActivityDomain
import LiveActivityFigures

/// The status page's acknowledged wakes per hour (SPEC 3, issue 16): from the hourly delivery
/// figures, where a push answered 200 and its ack are both filed by the hour APNs answered it,
/// so the share divides like by like (issue 26 point 8: the 200s once came from the runs, filed
/// by the hour each run started). `acknowledged` is left nil while this database has counted no
/// ack at all, so the page says "no acks yet" rather than 0%.
extension StatsReport.Day {
    static func wakeHours(_ connection: SQLiteConnection, since firstHour: Int64) throws(SQLiteError) -> [StatsReport.WakeHour] {
        let anyAck = try connection.statement("SELECT coalesce(sum(count), 0) FROM ack_totals").scalarInt() ?? 0 > 0
        let buckets = (0..<AckDelayBuckets.count).map { "sum(d\($0))" }.joined(separator: ", ")
        return try connection.statement(
            "SELECT hour, sum(delivered), sum(acked), \(buckets) FROM delivery_hours WHERE hour >= ? GROUP BY hour ORDER BY hour"
        ).rows([.integer(DeliveryHour.of(firstHour))]) { row in
            var hour = StatsReport.WakeHour(start: row.int(0) * DeliveryHour.milliseconds, answered: row.int(1))
            if anyAck {
                let delays = (0..<AckDelayBuckets.count).map { row.int(Int32($0 + 3)) }
                hour.acknowledged = row.int(2)
                hour.delayMedianMilliseconds = AckDelayBuckets.quantile(0.5, of: delays).map { Int64($0 * 1000) }
                hour.delayP90Milliseconds = AckDelayBuckets.quantile(0.9, of: delays).map { Int64($0 * 1000) }
            }
            return hour
        }
    }
}
