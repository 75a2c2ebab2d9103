import LiveActivityDomain
import LiveActivityFigures

/// The delivery figures of `stats` (SPEC 7): sums over the hourly figures (at most 7 x 24 hours x
/// apps x kinds x types x environments rows) and the lifetime ack totals; never the targets or
/// attempts. The default app's are the report's own, each further app's a report in `apps`.
extension DeliveryReport {
    /// The figures as of `now` (ms).
    static func gather(_ queries: any FigureQueries, now: Int64) throws -> DeliveryReport {
        let hour = DeliveryHour.of(now)
        let day = try queries.deliveryWindows(sinceHour: hour - 23).sorted(by: Window.ordered)
        let week = try queries.deliveryWindows(sinceHour: hour - (DeliveryHour.kept - 1)).sorted(by: Window.ordered)
        let acksDay = try queries.acks(sinceHour: hour - 23)
        let acksWeek = try queries.acks(sinceHour: hour - (DeliveryHour.kept - 1))
        let acksLifetime = try queries.acks(sinceHour: nil)
        func figures(of app: AppName) -> DeliveryReport {
            var report = DeliveryReport()
            (report.lastDay, report.otherKindsLastDay) = windows(day.filter { $0.app == app })
            (report.lastWeek, report.otherKindsLastWeek) = windows(week.filter { $0.app == app })
            report.acksLastDay = outcomes(acksDay.filter { $0.app == app })
            report.acksLastWeek = outcomes(acksWeek.filter { $0.app == app })
            report.acksLifetime = outcomes(acksLifetime.filter { $0.app == app })
            return report
        }
        var report = figures(of: .defaultApp)
        let apps = Set((day + week).map(\.app) + (acksDay + acksWeek + acksLifetime).map(\.app))
        for app in apps where !app.isDefault { report.apps[app] = figures(of: app) }
        return report
    }

    /// One app's windows (`found`): the wakes' one per type (every type listed, also without
    /// figures, then any type this build does not know), and one window per other kind with
    /// figures, its types summed.
    static func windows(_ found: [Window]) -> (wakes: [Window], others: [Window]) {
        let wakes = found.filter { $0.kind == .wake }
        let app = found.first?.app ?? .defaultApp
        let known = ActivityType.allCases.map { type in
            wakes.first { $0.activityType == .known(type) } ?? Window(activityType: .known(type), app: app)
        }
        let unknown = wakes.filter { window in !ActivityType.allCases.contains { window.activityType == .known($0) } }
        var others: [Window] = []
        for window in found where window.kind != .wake {
            guard let at = others.firstIndex(where: { $0.kind == window.kind }) else {
                var first = window
                first.activityType = nil
                others.append(first)
                continue
            }
            others[at].delivered = others[at].delivered.addingSaturated(window.delivered)
            others[at].registrationHours = others[at].registrationHours.addingSaturated(window.registrationHours)
        }
        let order = { (kind: PushKind) in PushKind.all.firstIndex(of: kind) ?? .max }
        others.sort { order($0.kind) < order($1.kind) }
        return (known + unknown, others)
    }

    /// Every outcome listed, 0 when none was counted.
    static func outcomes(_ rows: [AckOutcomeCount]) -> [AckOutcome: Int64] {
        var result = Dictionary(uniqueKeysWithValues: AckOutcome.allCases.map { ($0, Int64(0)) })
        for row in rows { result[row.outcome, default: 0] = result[row.outcome, default: 0].addingSaturated(row.count) }
        return result
    }
}
