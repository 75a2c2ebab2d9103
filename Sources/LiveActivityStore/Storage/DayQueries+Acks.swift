import LiveActivityDomain
import LiveActivityFigures

/// The status page's acknowledged wakes per hour (SPEC 3, issue 16): from the hourly delivery
/// figures, which the acks add to; left nil while this database has counted no ack at all, so
/// the page says "no acks yet" rather than 0%.
extension StatsReport.Day {
    static func addAcks(to hours: inout [StatsReport.WakeHour], _ connection: SQLiteConnection) throws(SQLiteError) {
        guard let first = hours.first?.start,
            try connection.statement("SELECT coalesce(sum(count), 0) FROM ack_totals").scalarInt() ?? 0 > 0
        else { return }
        let buckets = (0..<AckDelayBuckets.count).map { "sum(d\($0))" }.joined(separator: ", ")
        let acked = try connection.statement(
            "SELECT hour, sum(acked), \(buckets) FROM delivery_hours WHERE hour >= ? GROUP BY hour"
        ).rows([.integer(DeliveryHour.of(first))]) { row in
            (row.int(0), row.int(1), (0..<AckDelayBuckets.count).map { row.int(Int32($0 + 2)) })
        }
        let byHour = Dictionary(acked.map { ($0.0, ($0.1, $0.2)) }, uniquingKeysWith: { first, _ in first })
        for index in hours.indices {
            let (count, delays) = byHour[DeliveryHour.of(hours[index].start)] ?? (0, [])
            hours[index].acknowledged = count
            hours[index].delayMedianMilliseconds = AckDelayBuckets.quantile(0.5, of: delays).map { Int64($0 * 1000) }
            hours[index].delayP90Milliseconds = AckDelayBuckets.quantile(0.9, of: delays).map { Int64($0 * 1000) }
        }
    }
}
