import LiveActivityDomain
import LiveActivityFigures

/// The reads behind the delivery figures of `stats` and `/wakeup/metrics` (SPEC 7): sums over a
/// range of the hourly tables' primary key (at most 7 x 24 hours x types x environments rows),
/// and the lifetime ack totals; never a read of the registrations or the attempts.
extension DeliveryReport {
    /// The figures as of `now` (ms).
    static func gather(_ connection: SQLiteConnection, now: Int64) throws(SQLiteError) -> DeliveryReport {
        let hour = DeliveryHour.of(now)
        var report = DeliveryReport()
        report.lastDay = try windows(connection, since: hour - 23)
        report.lastWeek = try windows(connection, since: hour - (DeliveryHour.kept - 1))
        report.acksLastDay = try acks(connection, since: hour - 23)
        report.acksLastWeek = try acks(connection, since: hour - (DeliveryHour.kept - 1))
        report.acksLifetime = try lifetimeAcks(connection)
        return report
    }

    /// One window per type (every type listed, also without figures), from `since` (an hour).
    static func windows(_ connection: SQLiteConnection, since: Int64) throws(SQLiteError) -> [Window] {
        let buckets = (0..<AckDelayBuckets.count).map { "sum(d\($0))" }.joined(separator: ", ")
        let found = try connection.statement(
            """
            SELECT activity_type, sum(delivered), sum(acked), sum(registrations), sum(delay_sum_ms), \(buckets)
            FROM delivery_hours WHERE hour >= ? GROUP BY activity_type ORDER BY activity_type
            """
        ).rows([.integer(since)]) { row in
            var window = Window(activityType: row.text(0) ?? "")
            window.delivered = row.int(1)
            window.acked = row.int(2)
            window.registrationHours = row.int(3)
            window.delaySumMilliseconds = row.int(4)
            window.delayBuckets = (0..<AckDelayBuckets.count).map { row.int(Int32($0 + 5)) }
            return window
        }
        let known = ActivityType.allCases.map { type in
            found.first { $0.activityType == type.rawValue } ?? Window(activityType: type.rawValue)
        }
        return known + found.filter { window in !ActivityType.allCases.contains { $0.rawValue == window.activityType } }
    }

    static func acks(_ connection: SQLiteConnection, since: Int64) throws(SQLiteError) -> [AckOutcome: Int64] {
        let rows = try connection.statement("SELECT outcome, sum(count) FROM ack_hours WHERE hour >= ? GROUP BY outcome")
            .rows([.integer(since)]) { row in (row.text(0) ?? "", row.int(1)) }
        return outcomes(rows)
    }

    /// Every ack ever counted, by outcome: totals that never go down (SPEC 7).
    static func lifetimeAcks(_ connection: SQLiteConnection) throws(SQLiteError) -> [AckOutcome: Int64] {
        outcomes(
            try connection.statement("SELECT outcome, count FROM ack_totals").rows { row in (row.text(0) ?? "", row.int(1)) })
    }

    /// Every outcome listed, 0 when none was counted.
    private static func outcomes(_ rows: [(String, Int64)]) -> [AckOutcome: Int64] {
        var result = Dictionary(uniqueKeysWithValues: AckOutcome.allCases.map { ($0, Int64(0)) })
        for (name, count) in rows { if let outcome = AckOutcome(rawValue: name) { result[outcome] = count } }
        return result
    }
}

extension MetricsSnapshot {
    /// The lifetime ack delay histogram (non-cumulative, `AckDelayBuckets`) and its sum in ms.
    static func ackDelays(_ connection: SQLiteConnection) throws(SQLiteError) -> (buckets: [Int64], sumMilliseconds: Int64) {
        var buckets = [Int64](repeating: 0, count: AckDelayBuckets.count)
        let counted = try connection.statement("SELECT bucket, count FROM ack_delay_totals").rows { row in
            (row.int(0), row.int(1))
        }
        for (bucket, count) in counted where bucket >= 0 && bucket < Int64(buckets.count) { buckets[Int(bucket)] = count }
        let sum = try connection.statement("SELECT delay_sum_ms FROM ack_totals WHERE outcome = 'matched'").scalarInt() ?? 0
        return (buckets, sum)
    }
}
