import LiveActivityDomain

/// The page's figures of the kinds of push beside wakes (SPEC 7: widgets pushes beside wakes):
/// their targets now and waiting after failures, their pushes answered 200 per 10 minutes, and
/// (in the sections of wakes) their reasons, faults and totals, each under the kind's name. A
/// deployment without such targets shows none of it: the page is the wakes' as it always was.
extension StatusPage {
    /// The kinds besides wakes the report has targets or figures of, in the kinds' order.
    static func otherKinds(_ report: StatsReport) -> [String] {
        let named =
            Set(report.otherTargets.map(\.kind.name)).union(report.day.otherBuckets.keys)
            .union((report.day.failureReasons + report.day.removalReasons).map(\.kind.name))
            .union(report.lastDay.others.map(\.kind.name)).union(report.backingOff.map(\.kind.name))
            .subtracting([PushKind.wake.name])
        let order = PushKind.all.map(\.name)
        return named.sorted { (order.firstIndex(of: $0) ?? .max, $0) < (order.firstIndex(of: $1) ?? .max, $1) }
    }

    /// `Widgets` for `widgets`, escaped.
    static func title(_ kind: String) -> String { HTMLText.escape(kind.prefix(1).uppercased() + kind.dropFirst()) }

    /// Each other kind's targets by type and environment, and those waiting after failures.
    static func otherTargetsNow(_ report: StatsReport) -> String {
        var out = ""
        for kind in otherKinds(report) {
            let name = title(kind)
            let groups = report.otherTargets.filter { $0.kind.name == kind }
            out += "<table><caption>\(name) targets, by type and environment</caption>"
            out += tableHead(["Type", "Environment"], numbers: ["Targets"]) + "<tbody>"
            for group in groups {
                let figure =
                    "otherTargets.\(kind)/\(group.app.prefix("/"))\(group.activityType.rawValue)/\(group.environment.rawValue)"
                out +=
                    "<tr><td>\(whose(group.app.rawValue))\(HTMLText.escape(group.activityType.rawValue))</td><td>\(HTMLText.escape(group.environment.rawValue))</td>"
                out += numberCell(group.count, figure: figure) + "</tr>"
            }
            if groups.isEmpty { out += "<tr><td colspan=\"3\">None now.</td></tr>" }
            let waiting = report.backingOff.filter { $0.kind.name == kind }
            for entry in waiting {
                out +=
                    "<tr class=\"bad\"><td colspan=\"2\">waiting after failures, \(HTMLText.escape(entry.environment.rawValue))</td>"
                out += numberCell(entry.count, figure: "otherBackingOff.\(kind)/\(entry.environment.rawValue)") + "</tr>"
            }
            out += "</tbody></table>"
        }
        return out
    }

    /// A chart per other kind of its pushes answered 200 per 10 minutes, its numbers (and the
    /// failed ones) beneath.
    static func otherKindsDay(_ report: StatsReport) -> String {
        otherKinds(report).map { kind in
            sentDay(
                report.day.otherBuckets[kind] ?? [], of: report.day, id: "\(HTMLText.escape(kind))-sent-chart",
                subject: "\(title(kind)) pushes", className: "s-other", figure: "day.otherKinds.\(kind)",
                caption: "\(kind.prefix(1).uppercased() + kind.dropFirst()) pushes answered 200, per 10 minutes.",
                emptyNote: "No \(kind) push in these 24 hours")
        }.joined()
    }

    /// One chart of `buckets`' pushes answered 200 per 10 minutes over `day`, titled by
    /// `subject` (escaped), with its numbers (and the failed ones) beneath, their totals marked
    /// `figure`.sent and .failed: another kind's, or a further app's kind's.
    static func sentDay(
        _ buckets: [StatsReport.SweepBucket], of day: StatsReport.Day, id: String, subject: String, className: String,
        figure figureName: String, caption: String, emptyNote: String? = nil
    ) -> String {
        typealias Day = StatsReport.Day
        let sent = buckets.map(\.sent).saturatedSum()
        let failed = buckets.map(\.failed).saturatedSum()
        let most = buckets.map(\.sent).max() ?? 0
        var chart = SVGChart(
            id: id,
            title:
                "\(subject) answered 200 over the last 24 hours, per 10 minutes: \(HTMLText.count(sent)) in all, at most \(HTMLText.count(most)) in 10 minutes",
            xStart: day.start, xEnd: day.start + Day.bucketCount * Day.bucketMilliseconds, largest: most)
        chart.addBars(buckets.map { ($0.start, 0, $0.sent) }, width: Day.bucketMilliseconds, className: className)
        if buckets.isEmpty, let emptyNote { chart.addNote(emptyNote) }
        let footer =
            "<tr><th scope=\"row\">24 h</th>" + numberCell(sent, figure: "\(figureName).sent")
            + numberCell(failed, figure: "\(figureName).failed") + "</tr>"
        return figure(
            chart, caption: caption,
            table: bucketTable(buckets, [("Answered 200", \.sent), ("Failed", \.failed)], footer: footer))
    }
}
