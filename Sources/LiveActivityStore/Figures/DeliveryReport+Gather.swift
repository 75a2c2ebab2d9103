import LiveActivityDomain
import LiveActivityFigures

/// The delivery figures of `stats` (SPEC 7): sums over the hourly figures (at most 7 x 24 hours x
/// kinds x types x environments rows) and the lifetime ack totals; never the targets or attempts.
extension DeliveryReport {
    /// The figures as of `now` (ms).
    static func gather(_ queries: any FigureQueries, now: Int64) throws -> DeliveryReport {
        let hour = DeliveryHour.of(now)
        var report = DeliveryReport()
        (report.lastDay, report.otherKindsLastDay) = try windows(queries, sinceHour: hour - 23)
        (report.lastWeek, report.otherKindsLastWeek) = try windows(queries, sinceHour: hour - (DeliveryHour.kept - 1))
        report.acksLastDay = outcomes(try queries.acks(sinceHour: hour - 23))
        report.acksLastWeek = outcomes(try queries.acks(sinceHour: hour - (DeliveryHour.kept - 1)))
        report.acksLifetime = outcomes(try queries.acks(sinceHour: nil))
        return report
    }

    /// The wakes' windows, one per type (every type listed, also without figures, then any type
    /// this build does not know), and one window per other kind with figures, its types summed.
    static func windows(_ queries: any FigureQueries, sinceHour: Int64) throws -> (wakes: [Window], others: [Window]) {
        let found = try queries.deliveryWindows(sinceHour: sinceHour)
        let wakes = found.filter { $0.kind == PushKind.wake.name }
        let known = ActivityType.allCases.map { type in
            wakes.first { $0.activityType == type.rawValue } ?? Window(activityType: type.rawValue)
        }
        let unknown = wakes.filter { window in !ActivityType.allCases.contains { $0.rawValue == window.activityType } }
        var others: [Window] = []
        for window in found where window.kind != PushKind.wake.name {
            guard let at = others.firstIndex(where: { $0.kind == window.kind }) else {
                var first = window
                first.activityType = ""
                others.append(first)
                continue
            }
            others[at].delivered = others[at].delivered.addingSaturated(window.delivered)
            others[at].registrationHours = others[at].registrationHours.addingSaturated(window.registrationHours)
        }
        let order = PushKind.all.map(\.name)
        others.sort { (order.firstIndex(of: $0.kind) ?? .max, $0.kind) < (order.firstIndex(of: $1.kind) ?? .max, $1.kind) }
        return (known + unknown, others)
    }

    /// Every outcome listed, 0 when none was counted; names this build does not know are left out.
    static func outcomes(_ rows: [AckOutcomeCount]) -> [AckOutcome: Int64] {
        var result = Dictionary(uniqueKeysWithValues: AckOutcome.allCases.map { ($0, Int64(0)) })
        for row in rows {
            if let outcome = AckOutcome(rawValue: row.outcome) {
                result[outcome, default: 0] = result[outcome, default: 0].addingSaturated(row.count)
            }
        }
        return result
    }
}
