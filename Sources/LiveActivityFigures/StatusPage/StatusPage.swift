import LiveActivityDomain

/// The operator's status page (SPEC 3): `GET /wakeup/status` and `liveactivity-sweep stats
/// --html` render it from the same `StatsReport` that `stats --json` prints, so the page and the
/// JSON always show the same figures. One self-contained document: no script, no outside
/// resource, the style inline, charts as inline SVG each with its numbers in a table beneath;
/// readable on a phone, in a saved file and with a screen reader. It shows no push token at all
/// (the top wakeup counts go without their tokens), and every text passes `HTMLText.escape`.
/// Elements carrying a figure have `data-figure="<name>"`, the name of its place in the JSON.
public enum StatusPage {
    public static let contentType = "text/html; charset=utf-8"
    /// SPEC 3's policy: nothing loads, nothing runs; the inline style sheet and data: images only.
    public static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

    public static func render(_ report: StatsReport) -> String {
        var page = ""
        page.reserveCapacity(64 * 1024)
        page += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        page += "<title>Live Activity wake-ups: status</title><style>\(style)</style></head><body>"
        page += "<header><h1>Live Activity wake-ups</h1>"
        page += "<p class=\"asof\">Status as of <time data-figure=\"generatedAt\" data-value=\"\(report.generatedAt)\">"
        page += "\(UTCTime(milliseconds: report.generatedAt).full)</time></p></header><main>"
        page += health(report)
        page += now(report)
        page += lastDay(report)
        page += wakes(report)
        page += withheld(report)
        page += reasons(report)
        page += faults(report)
        page += sweeps(report)
        page += "</main><footer><p>The same figures for machines: <code>liveactivity-sweep stats --json</code>; "
        page += "counters for Prometheus: <code>/wakeup/metrics</code>. Times are UTC. This page reloads only when "
        page += "you reload it.</p></footer></body></html>\n"
        return page
    }

    // MARK: - The last sweep and the alarm

    /// The further apps whose faults the last sweep recorded, named (SPEC 6: the alarm says whose
    /// pushes fail); nothing where there are none, as on a deployment of one app.
    static func failingApps(_ report: StatsReport) -> String {
        guard let last = report.lastRunAt else { return "" }
        let apps = Set(
            report.recentFaults.filter { $0.lastAt == last && !$0.app.isDefault }.map(\.app.rawValue)
        ).sorted()
        guard !apps.isEmpty else { return "" }
        let names = apps.map {
            "<strong data-figure=\"failingApps\" data-value=\"\(HTMLText.escape($0))\">\(HTMLText.escape($0))</strong>"
        }
        return "Its faults stopped the pushes of app \(names.joined(separator: ", ")). "
    }

    static func health(_ report: StatsReport) -> String {
        let health = SweepHealth(report)
        var out = "<section id=\"health\" class=\"health \(health.isAlarm ? "alarm" : "ok")\" data-alarm=\"\(health.isAlarm)\""
        out += " aria-labelledby=\"health-heading\">"
        if health.isAlarm {
            out +=
                "<h2 id=\"health-heading\"><span class=\"sign\" aria-hidden=\"true\">!</span> Alarm: the sweeps need attention</h2><ul>"
            for alarm in health.alarms {
                out += "<li data-figure=\"alarms\" data-value=\"\(alarm.name)\">"
                switch alarm {
                case .noSweepRecorded:
                    out +=
                        "No sweep has been recorded in this database. Is cron running <code>liveactivity-sweep</code> every minute, with this <code>LIVEACTIVITY_DB</code>?"
                case .noSweepFinishedLately(let milliseconds) where milliseconds < 0:
                    out += "No sweep finished in the last 3 minutes: the last one recorded finished "
                    out +=
                        "\(HTMLText.age(milliseconds.negatedSaturated())) ahead of this host's clock, which went back since, and none ran after. "
                    out += "Is cron running? The sweep's log says why a run stopped before recording itself."
                case .noSweepFinishedLately(let milliseconds):
                    out += "No sweep finished in the last 3 minutes: the last one finished \(HTMLText.age(milliseconds)) ago. "
                    out += "Is cron running? The sweep's log says why a run stopped before recording itself."
                case .lastSweepFailed:
                    out +=
                        "The last sweep exited non-zero: a configuration or provider fault, or the mass-deletion guard held deletions. "
                    out += Self.failingApps(report)
                    out += "Its log line says what to fix; the faults are listed below."
                case .hostStopped(let host, let milliseconds):
                    out +=
                        "Host <strong data-figure=\"stoppedHosts\" data-value=\"\(HTMLText.escape(host))\">\(HTMLText.escape(host))</strong> recorded no sweep in the "
                    out += "last 3 minutes (its last one finished "
                    out +=
                        milliseconds < 0
                        ? "\(HTMLText.age(milliseconds.negatedSaturated())) ahead of this clock). "
                        : "\(HTMLText.age(milliseconds)) ago). "
                    out += "The other hosts go on sweeping its registrations; is its cron running, and can it reach the database?"
                }
                out += "</li>"
            }
            out += "</ul>"
        } else {
            out += "<h2 id=\"health-heading\"><span class=\"sign\" aria-hidden=\"true\">✓</span> Sweeps are running</h2>"
        }
        if let startedAt = report.lastRunAt {
            out += "<p>Last sweep: started <time data-figure=\"lastRunAt\" data-value=\"\(startedAt)\">"
            out +=
                "\(UTCTime(milliseconds: startedAt).full)</time> (\(HTMLText.age(report.generatedAt.subtractingSaturated(startedAt))) before this page)"
            out += ", took <span data-figure=\"lastRunDurationMs\" data-value=\"\(report.lastRunDurationMilliseconds ?? 0)\">"
            out += "\(HTMLText.duration(report.lastRunDurationMilliseconds ?? 0))</span>"
            out += report.day.lastRunExitedNonZero ? ", exited non-zero" : ", exited 0"
            let outcome = report.lastRunOutcome?.text ?? RunOutcome.ok.text
            out += ". Result: <span data-figure=\"lastRunOutcome\">\(HTMLText.escape(outcome))</span>.</p>"
        } else {
            out += "<p>Last sweep: none recorded.</p>"
        }
        return out + hosts(report) + "</section>"
    }

    /// Each host's last sweep, where several hosts sweep one database (SPEC 5, "Several hosts").
    static func hosts(_ report: StatsReport) -> String {
        guard report.day.hosts.count > 1 else { return "" }
        var out = "<table><caption>Hosts sweeping this database (the last sweep of each)</caption>"
        out += tableHead(["Host", "Last sweep started", "Exit"], numbers: ["Took"]) + "<tbody>"
        for run in report.day.hosts {
            let host = HTMLText.escape(run.host)
            out += "<tr><td>\(host)</td><td><time data-figure=\"hosts.\(host).lastRunAt\" data-value=\"\(run.startedAt)\">"
            out +=
                "\(UTCTime(milliseconds: run.startedAt).full)</time> (\(HTMLText.age(report.generatedAt.subtractingSaturated(run.startedAt))) ago)</td>"
            out += "<td>\(run.failed ? "non-zero" : "0")</td>"
            out += "<td class=\"n\" data-figure=\"hosts.\(host).lastRunDurationMs\" data-value=\"\(run.durationMilliseconds)\">"
            out += "\(HTMLText.duration(run.durationMilliseconds))</td></tr>"
        }
        return out + "</tbody></table>"
    }

    // MARK: - Registrations now

    static func now(_ report: StatsReport) -> String {
        let backingOff = report.backingOff.filter { $0.kind == .wake }.map(\.count).saturatedSum()
        var out = "<section aria-labelledby=\"now-heading\"><h2 id=\"now-heading\">Registrations now</h2><div class=\"cards\">"
        out += card("Active", report.active, figure: "active")
        out += card("Backing off", backingOff, figure: "backingOffTotal")
        out += card(defaultApps("Sent, 24 h", in: report), report.lastDay.sent, figure: "sweeps24h.sent")
        out += card(
            defaultApps("Failed, 24 h", in: report), report.lastDay.failed, figure: "sweeps24h.failed",
            warn: report.lastDay.failed > 0)
        out += "</div>"

        out += "<div class=\"tables\"><table><caption>By type and environment</caption>"
        out += tableHead(["Type", "Environment"], numbers: ["Registrations"]) + "<tbody>"
        if report.byTypeAndEnvironment.isEmpty {
            out += "<tr><td colspan=\"3\">None registered.</td></tr>"
        }
        for group in report.byTypeAndEnvironment {
            let name =
                "byTypeAndEnvironment.\(group.app.prefix("/"))\(group.activityType.rawValue)/\(group.environment.rawValue)"
            out +=
                "<tr><td>\(whose(group.app.rawValue))\(HTMLText.escape(group.activityType.rawValue))</td><td>\(HTMLText.escape(group.environment.rawValue))</td>"
            out += numberCell(group.count, figure: name) + "</tr>"
        }
        out += "</tbody></table>"

        out += "<table><caption>Waiting after failures (back-off)</caption>"
        out += tableHead(["Environment"], numbers: ["Registrations"]) + "<tbody>"
        for entry in report.backingOff where entry.kind == .wake {
            out +=
                "<tr><td>\(HTMLText.escape(entry.environment.rawValue))</td>"
                + numberCell(entry.count, figure: "backingOff.\(entry.environment.rawValue)") + "</tr>"
        }
        out += "</tbody></table>"

        out += "<table><caption>By age</caption>" + tableHead(["Registered"], numbers: ["Registrations"]) + "<tbody>"
        for (label, count) in report.byAge where label != ">8h" || count > 0 {
            out += "<tr><td>\(HTMLText.escape(label)) ago</td>" + numberCell(count, figure: "byAge.\(label)") + "</tr>"
        }
        out += "</tbody></table>" + otherTargetsNow(report) + "</div>"

        // The wake-ups are every app's (the counters of all wake targets), the lifetime figure the
        // default app's wakes (as in `stats`): each labelled so where further apps show.
        let everyApp = report.hasFurtherApps ? ", every app's" : ""
        out +=
            "<p class=\"small\">Wake-ups of the active registrations\(everyApp): "
            + figureSpan(report.activeWakeups, figure: "activeWakeups")
        if !report.topWakeups.isEmpty {
            out += "; the most-woken have " + report.topWakeups.map { HTMLText.count($0.count) }.joined(separator: ", ")
        }
        out +=
            ". \(defaultApps("Delivered over all recorded runs", in: report)): "
            + figureSpan(report.lifetimeSent, figure: "lifetimeSent") + "."
        out += lifetimeBesideDefaultWakes(report)
        if let oldest = report.oldestRegisteredAt {
            out += " Oldest registration: \(HTMLText.age(report.generatedAt.subtractingSaturated(oldest))) old."
        }
        return out + "</p></section>"
    }

    // MARK: - Small pieces

    static func card(_ label: String, _ value: Int64, figure: String, warn: Bool = false) -> String {
        "<div class=\"card\(warn ? " warn" : "")\"><span class=\"label\">\(HTMLText.escape(label))</span>"
            + "<span class=\"value\" data-figure=\"\(HTMLText.escape(figure))\" data-value=\"\(value)\">\(HTMLText.count(value))</span></div>"
    }

    /// A table's head: the `texts` columns, then the `numbers` columns (right-aligned).
    static func tableHead(_ texts: [String], numbers: [String]) -> String {
        let cells = texts.map { "<th scope=\"col\">\($0)</th>" } + numbers.map { "<th scope=\"col\" class=\"n\">\($0)</th>" }
        return "<thead><tr>" + cells.joined() + "</tr></thead>"
    }

    /// A count in running text, named for the page's checks as the cards and cells are.
    static func figureSpan(_ value: Int64, figure: String) -> String {
        "<span data-figure=\"\(HTMLText.escape(figure))\" data-value=\"\(value)\">\(HTMLText.count(value))</span>"
    }

    static func numberCell(_ value: Int64, figure: String? = nil) -> String {
        guard let figure else { return "<td class=\"n\">\(HTMLText.count(value))</td>" }
        return "<td class=\"n\" data-figure=\"\(HTMLText.escape(figure))\" data-value=\"\(value)\">\(HTMLText.count(value))</td>"
    }

    /// A chart and, under it, its numbers (a person opens them; assistive technology reads them).
    static func figure(_ chart: SVGChart, caption: String, table: String) -> String {
        "<figure>" + chart.render() + "<figcaption>\(HTMLText.escape(caption))</figcaption>"
            + "<details><summary>The numbers</summary>" + table + "</details></figure>"
    }
}
