import LiveActivityDomain

/// The status page's sections below "Registrations now": the 24-hour charts, the wakes the app
/// acknowledged, failure reasons, faults per environment and the sweep totals.
extension StatusPage {
    // MARK: - 24 hours of sweep runs

    static func lastDay(_ report: StatsReport) -> String {
        typealias Day = StatsReport.Day
        let day = report.day
        let end = day.start + Day.bucketCount * Day.bucketMilliseconds
        let width = Day.bucketMilliseconds
        let buckets = day.buckets
        var out =
            "<section aria-labelledby=\"day-heading\"><h2 id=\"day-heading\">Last 24 hours, per 10 minutes</h2><div class=\"charts\">"

        let mostActive = buckets.map(\.active).max() ?? 0
        let latestActive = buckets.last?.active ?? 0
        var active = SVGChart(
            id: "active-chart",
            title:
                "Registrations active over the last 24 hours, per 10 minutes: \(HTMLText.count(latestActive)) in the latest sweeps, at most \(HTMLText.count(mostActive))",
            xStart: day.start, xEnd: end, largest: mostActive)
        active.addLine(buckets.map { ($0.start.addingSaturated(width / 2), $0.active) }, maxGap: width, className: "s-active")
        if buckets.isEmpty { active.addNote("No sweep ran in these 24 hours") }
        out += figure(
            active, caption: "Registrations active (the most any sweep of the 10 minutes saw).",
            table: bucketTable(buckets, [("Sweeps", \.runs), ("Active", \.active)]))

        // Sent and failed on charts of their own: a few failures under thousands of 200s would
        // not show on one scale. The default app's, where further apps have charts of their own.
        for (id, name, label, className, value) in [
            ("sent-chart", "sent", "answered 200", "s-sent", \StatsReport.SweepBucket.sent),
            ("failed-chart", "failed", "failed", "s-failed", \StatsReport.SweepBucket.failed),
        ] {
            let total = buckets.map { $0[keyPath: value] }.saturatedSum()
            let most = buckets.map { $0[keyPath: value] }.max() ?? 0
            var chart = SVGChart(
                id: id,
                title:
                    "\(defaultApps("Pushes \(label)", in: report)) over the last 24 hours, per 10 minutes: \(HTMLText.count(total)) in all, at most \(HTMLText.count(most)) in 10 minutes",
                xStart: day.start, xEnd: end, largest: most)
            chart.addBars(buckets.map { ($0.start, 0, $0[keyPath: value]) }, width: width, className: className)
            if buckets.isEmpty { chart.addNote("No sweep ran in these 24 hours") }
            let footer = "<tr><th scope=\"row\">24 h</th>" + numberCell(total, figure: "day.\(name)") + "</tr>"
            out += figure(
                chart, caption: "\(defaultApps("Pushes \(label)", in: report)), per 10 minutes.",
                table: bucketTable(buckets, [("Pushes \(label)", value)], footer: footer))
        }
        return out + otherKindsDay(report) + appsDay(report) + "</div></section>"
    }

    // MARK: - Wakes the app acknowledged

    static func wakes(_ report: StatsReport) -> String {
        typealias Day = StatsReport.Day
        let hours = report.day.hours
        let acknowledged = hours.map { $0.acknowledged ?? 0 }.saturatedSum()
        var out = "<section aria-labelledby=\"wakes-heading\"><h2 id=\"wakes-heading\">Wakes acknowledged, per hour</h2>"
        out += "<p class=\"small\">APNs answers 200 when it accepts a push, not when the phone wakes; the app says it woke "
        out += "with <code>POST /wakeup/ack</code>. The share is of the pushes answered 200 in that hour.</p>"
        let table = hourTable(hours)
        guard acknowledged > 0 else {
            out +=
                "<p class=\"empty\" data-figure=\"acks\" data-value=\"none\"><strong>\(defaultApps("No acks yet", in: report)).</strong> "
            out += "No push of the last 24 hours was acknowledged by the app; the chart appears once one is.</p>"
            if !hours.isEmpty {
                out += "<details><summary>\(defaultApps("The 200s per hour", in: report))</summary>" + table + "</details>"
            }
            return out + appsWakes(report) + "</section>"
        }
        // The 24 hours on the hour, the current one last (the hours' own grid, not the buckets').
        let firstHour = Day.firstHour(now: report.generatedAt)
        let latest = hours.last?.share.map(HTMLText.percent) ?? "–"
        var chart = SVGChart(
            id: "acks-chart",
            title:
                "\(defaultApps("Share of pushes answered 200 that the app acknowledged", in: report)), per hour, last 24 hours: \(latest) in the latest hour, \(HTMLText.count(acknowledged)) acknowledged in all",
            xStart: firstHour, xEnd: firstHour + 24 * Day.hourMilliseconds, largest: 100, label: { "\($0)%" })
        chart.addBars(
            hours.map { ($0.start, 0, Int64(saturating: (($0.share ?? 0) * 100).rounded())) }, width: Day.hourMilliseconds,
            className: "s-acked")
        // The delay: median and 90th percentile per hour, told apart by the line's dash.
        let slowest = hours.compactMap(\.delayP90Milliseconds).max() ?? hours.compactMap(\.delayMedianMilliseconds).max() ?? 0
        var delay = SVGChart(
            id: "delay-chart",
            title:
                "\(defaultApps("Delay from the 200 to the app's ack", in: report)), per hour, last 24 hours: median \(hours.last?.delayMedianMilliseconds.map(HTMLText.duration) ?? "–") and 90th percentile \(hours.last?.delayP90Milliseconds.map(HTMLText.duration) ?? "–") in the latest hour",
            xStart: firstHour, xEnd: firstHour + 24 * Day.hourMilliseconds, largest: slowest,
            label: { $0 == 0 ? "0" : HTMLText.duration($0) })
        let middle = Day.hourMilliseconds / 2
        delay.addLine(
            hours.compactMap { hour in hour.delayMedianMilliseconds.map { (hour.start.addingSaturated(middle), $0) } },
            maxGap: Day.hourMilliseconds, className: "s-median")
        delay.addLine(
            hours.compactMap { hour in hour.delayP90Milliseconds.map { (hour.start.addingSaturated(middle), $0) } },
            maxGap: Day.hourMilliseconds, className: "s-p90")
        out += "<div class=\"charts\">"
        out += figure(
            chart, caption: "\(defaultApps("Acknowledged wakes", in: report)), percent of the 200s of each hour.", table: table)
        out += figure(
            delay, caption: "\(defaultApps("Ack delay", in: report)): median (solid line) and 90th percentile (dashed line).",
            table: table.replacing("<tr data-hour=", with: "<tr data-delay-hour="))
        return out + "</div>" + appsWakes(report) + "</section>"
    }

    /// The wakes' hours: answered 200, acknowledged, the share and the delay, a row per hour.
    static func hourTable(_ hours: [StatsReport.WakeHour], caption: String? = nil) -> String {
        var table =
            "<table>" + (caption.map { "<caption>\($0)</caption>" } ?? "")
            + tableHead(["Hour (UTC)"], numbers: ["Answered 200", "Acknowledged", "Share", "Delay median", "Delay p90"])
            + "<tbody>"
        for hour in hours {
            table += "<tr data-hour=\"\(hour.start)\"><th scope=\"row\">\(UTCTime(milliseconds: hour.start).clock)</th>"
            table += numberCell(hour.answered)
            table += hour.acknowledged.map { numberCell($0) } ?? "<td class=\"n\">–</td>"
            table += "<td class=\"n\">\(hour.share.map(HTMLText.percent) ?? "–")</td>"
            table += "<td class=\"n\">\(hour.delayMedianMilliseconds.map(HTMLText.duration) ?? "–")</td>"
            table += "<td class=\"n\">\(hour.delayP90Milliseconds.map(HTMLText.duration) ?? "–")</td></tr>"
        }
        return table + emptyRow(hours.isEmpty, columns: 6) + "</tbody></table>"
    }

    // MARK: - Failure reasons, faults, totals

    static func reasons(_ report: StatsReport) -> String {
        var out = "<section aria-labelledby=\"reasons-heading\"><h2 id=\"reasons-heading\">Why pushes failed, last 24 hours</h2>"
        out += "<div class=\"tables\">"
        for (caption, reasons, name, none) in [
            ("Failures (kept, tried again)", report.day.failureReasons, "failureReasons", "No push failed."),
            (
                "Removals (APNs said the token is gone)", report.day.removalReasons, "removalReasons",
                "No registration was removed."
            ),
        ] {
            out += "<table><caption>\(caption)</caption>" + tableHead(["Reason"], numbers: ["Pushes"]) + "<tbody>"
            // The wakes' reasons as they always were, then each other kind's under its name.
            for reason in reasons where reason.kind == .wake {
                out += "<tr><td>\(HTMLText.escape(reason.reason))</td>"
                out += numberCell(reason.count, figure: "day.\(name).\(reason.reason)") + "</tr>"
            }
            for reason in reasons where reason.kind != .wake {
                out += "<tr><td>\(HTMLText.escape(reason.kind.name)): \(HTMLText.escape(reason.reason))</td>"
                out += numberCell(reason.count, figure: "day.otherKinds.\(reason.kind.name).\(name).\(reason.reason)") + "</tr>"
            }
            if reasons.isEmpty { out += "<tr><td colspan=\"2\">\(none)</td></tr>" }
            out += "</tbody></table>"
        }
        return out + "</div></section>"
    }

    /// A group of rows per environment (every known one, "none" when it had no fault), so three
    /// columns fit a phone.
    static func faults(_ report: StatsReport) -> String {
        var out =
            "<section aria-labelledby=\"faults-heading\"><h2 id=\"faults-heading\">Faults per environment, last 24 hours</h2>"
        out += "<p class=\"small\">A fault stops a sweep's pushes to one environment, or one kind of push there (a "
        out += "wrong widgets topic); the rest goes on.</p>"
        out += "<div class=\"scroll\"><table>" + tableHead(["Fault"], numbers: ["Sweeps", "Pushes"])
        for environment in APNsEnvironment.allCases {
            let faults = report.recentFaults.filter { $0.environment == environment }
            out += "<tbody><tr><th scope=\"rowgroup\" colspan=\"3\" class=\"group\">\(HTMLText.escape(environment.rawValue))"
            out += faults.isEmpty ? ": none</th></tr>" : "</th></tr>"
            for fault in faults {
                let scope = fault.pushKind.map { "\($0.name)/" } ?? ""
                let app = fault.app.prefix("/")
                let name = "faults24h.\(app)\(environment.rawValue)/\(scope)\(fault.kind.rawValue)/\(fault.reason)"
                let only = fault.pushKind.map { "\(HTMLText.escape($0.name)) pushes: " } ?? ""
                // Which app's pushes it stopped, where there are several (SPEC 6).
                let whose = app.isEmpty ? "" : "app <strong>\(HTMLText.escape(fault.app.rawValue))</strong>, "
                out +=
                    "<tr class=\"bad\"><td>\(whose)\(only)\(HTMLText.escape(fault.kind.rawValue)) <code>\(HTMLText.escape(fault.reason))</code>"
                out += "<br><span class=\"small\">last \(UTCTime(milliseconds: fault.lastAt).full)</span></td>"
                out +=
                    numberCell(fault.runs, figure: name + ".runs") + numberCell(fault.pushes, figure: name + ".pushes") + "</tr>"
            }
            out += "</tbody>"
        }
        return out + "</table></div></section>"
    }

    /// The totals of SPEC 7, a row per figure so that two columns fit a phone.
    static func sweeps(_ report: StatsReport) -> String {
        var out =
            "<section aria-labelledby=\"sweeps-heading\"><h2 id=\"sweeps-heading\">Sweeps</h2><div class=\"scroll\"><table class=\"narrow\">"
        out += tableHead([""], numbers: ["24 h", "7 d"]) + "<tbody>"
        let periods = [("sweeps24h", report.lastDay), ("sweeps7d", report.lastWeek)]
        // Runs and expiry are every app's; sent, failed, removed and the rate the default app's wakes.
        func only(_ label: String) -> String { defaultApps(label, in: report) }
        for (label, key, value) in [
            ("Runs", "runs", \StatsReport.RunTotals.runs), (only("Sent (200)"), "sent", \.sent),
            (only("Failed"), "failed", \.failed),
            (only("Removed"), "removed", \.removed), ("Expired", "expired", \.expired),
        ] {
            out += "<tr><th scope=\"row\">\(label)</th>"
            for (name, totals) in periods { out += numberCell(totals[keyPath: value], figure: "\(name).\(key)") }
            out += "</tr>"
        }
        out += "<tr><th scope=\"row\">\(only("Error rate"))</th>"
        for (_, totals) in periods { out += "<td class=\"n\">\(HTMLText.percent(totals.errorRate))</td>" }
        out += "</tr>"
        // Every other kind's pushes over the same runs, under its name.
        for kind in otherKinds(report) {
            let rows: [(String, String, KeyPath<StatsReport.PushTotals, Int64>)] = [
                ("sent (200)", "sent", \.sent), ("failed", "failed", \.failed), ("removed", "removed", \.removed),
            ]
            for (label, key, path) in rows {
                out += "<tr><th scope=\"row\">\(title(kind)) \(label)</th>"
                for (name, totals) in periods {
                    let value: Int64 = totals.others.first(where: { $0.kind.name == kind })?[keyPath: path] ?? 0
                    out += numberCell(value, figure: "\(name).others.\(kind).\(key)")
                }
                out += "</tr>"
            }
        }
        // Each further app's pushes over the same runs, under its name.
        out += appsSweeps(report)
        return out + "</tbody></table></div></section>"
    }

    /// A table of the day's 10-minute buckets: a row per bucket under "From (UTC)" and a number
    /// column per entry of `columns`, the line of an empty day, then `footer`'s rows if given.
    static func bucketTable(
        _ buckets: [StatsReport.SweepBucket], _ columns: [(heading: String, value: KeyPath<StatsReport.SweepBucket, Int64>)],
        footer: String? = nil
    ) -> String {
        var table = "<table>" + tableHead(["From (UTC)"], numbers: columns.map(\.heading)) + "<tbody>"
        for bucket in buckets {
            table += "<tr data-bucket=\"\(bucket.start)\"><th scope=\"row\">\(UTCTime(milliseconds: bucket.start).clock)</th>"
            for column in columns { table += numberCell(bucket[keyPath: column.value]) }
            table += "</tr>"
        }
        table += emptyRow(buckets.isEmpty, columns: 1 + columns.count) + "</tbody>"
        if let footer { table += "<tfoot>" + footer + "</tfoot>" }
        return table + "</table>"
    }

    static func emptyRow(_ empty: Bool, columns: Int) -> String {
        empty ? "<tr><td colspan=\"\(columns)\">No sweep in these 24 hours.</td></tr>" : ""
    }
}
