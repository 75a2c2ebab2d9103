import LiveActivityDomain
import LiveActivityFigures

/// The delivery figures of `stats` (SPEC 7): sums over the hourly figures (at most 7 x 24 hours x
/// types x environments rows) and the lifetime ack totals; never the registrations or attempts.
extension DeliveryReport {
    /// The figures as of `now` (ms).
    static func gather(_ queries: any FigureQueries, now: Int64) throws -> DeliveryReport {
        let hour = DeliveryHour.of(now)
        var report = DeliveryReport()
        report.lastDay = try windows(queries, sinceHour: hour - 23)
        report.lastWeek = try windows(queries, sinceHour: hour - (DeliveryHour.kept - 1))
        report.acksLastDay = outcomes(try queries.acks(sinceHour: hour - 23))
        report.acksLastWeek = outcomes(try queries.acks(sinceHour: hour - (DeliveryHour.kept - 1)))
        report.acksLifetime = outcomes(try queries.acks(sinceHour: nil))
        return report
    }

    /// One window per type (every type listed, also without figures), then any type this build
    /// does not know.
    static func windows(_ queries: any FigureQueries, sinceHour: Int64) throws -> [Window] {
        let found = try queries.deliveryWindows(sinceHour: sinceHour)
        let known = ActivityType.allCases.map { type in
            found.first { $0.activityType == type.rawValue } ?? Window(activityType: type.rawValue)
        }
        return known + found.filter { window in !ActivityType.allCases.contains { $0.rawValue == window.activityType } }
    }

    /// Every outcome listed, 0 when none was counted; names this build does not know are left out.
    static func outcomes(_ rows: [(outcome: String, count: Int64)]) -> [AckOutcome: Int64] {
        var result = Dictionary(uniqueKeysWithValues: AckOutcome.allCases.map { ($0, Int64(0)) })
        for (name, count) in rows {
            if let outcome = AckOutcome(rawValue: name) {
                result[outcome, default: 0] = result[outcome, default: 0].addingSaturated(count)
            }
        }
        return result
    }
}
