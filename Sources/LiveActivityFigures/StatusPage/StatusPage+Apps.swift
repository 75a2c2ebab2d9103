import LiveActivityDomain

/// The page's figures of each further app's pushes (SPEC 6, 7: every figure that counts pushes
/// counts them per app where there are several): its pushes per 10 minutes, its wakes answered
/// and acknowledged per hour, and its sweep totals, each under the app's name. A deployment of
/// one app shows none of it: the page is the default app's as it always was.
extension StatusPage {
    /// `App two`, escaped: what a further app's figures are titled by.
    static func appTitle(_ app: String) -> String { "App " + HTMLText.escape(app) }

    /// `label` of a figure of the default app's alone (its wakes sent, failed and removed, as
    /// `stats` counts them), as `Default app: label` where the page shows further apps too, so
    /// that it is not read as every app's; `label` itself on a deployment of one app.
    static func defaultApps(_ label: String, in report: StatsReport) -> String {
        report.hasFurtherApps ? "Default app: " + label.prefix(1).lowercased() + label.dropFirst() : label
    }

    /// The pushes delivered over the whole recorded run history beyond the default app's wakes:
    /// its other kinds', then each further app's kinds', each under its name.
    static func lifetimeBesideDefaultWakes(_ report: StatsReport) -> String {
        var out = ""
        for totals in report.lifetimeOthers {
            let label = defaultApps("\(title(totals.kind.name)) pushes delivered over all recorded runs", in: report)
            out += " \(label): " + figureSpan(totals.sent, figure: "lifetimeOthers.\(totals.kind.name).sent") + "."
        }
        for totals in report.lifetimeApps {
            let (app, kind) = (totals.app.rawValue, totals.kind.name)
            out += " \(appTitle(app)): \(HTMLText.escape(kind)) pushes delivered over all recorded runs: "
            out += figureSpan(totals.sent, figure: "lifetimeApps.\(app).\(kind).sent") + "."
        }
        return out
    }

    /// `App two: ` before a further app's row of a table the apps share (registrations by type
    /// and environment), nothing before the default app's, as `stats` puts the app's name first.
    static func whose(_ app: String) -> String { AppName.isDefault(named: app) ? "" : appTitle(app) + ": " }

    /// The kinds' names in the kinds' order, any name this build does not know last.
    static func inKindOrder(_ kinds: some Sequence<String>) -> [String] {
        let order = PushKind.all.map(\.name)
        return Set(kinds).sorted { (order.firstIndex(of: $0) ?? .max, $0) < (order.firstIndex(of: $1) ?? .max, $1) }
    }

    /// A chart per further app and kind of its pushes answered 200 per 10 minutes, its numbers
    /// (and the failed ones) beneath.
    static func appsDay(_ report: StatsReport) -> String {
        let day = report.day
        var out = ""
        for (app, kinds) in day.apps.sorted(by: { $0.key < $1.key }) {
            for kind in PushKind.all {
                let buckets = kinds[kind]?.buckets ?? []
                guard !buckets.isEmpty else { continue }
                let (name, kindName) = (app.rawValue, kind.name)
                out += sentDay(
                    buckets, of: day, id: "app-\(HTMLText.escape(name))-\(HTMLText.escape(kindName))-sent-chart",
                    subject: "\(appTitle(name)): \(HTMLText.escape(kindName)) pushes", className: "s-sent",
                    figure: "day.apps.\(name).\(kindName)",
                    caption: "App \(name): \(kindName) pushes answered 200, per 10 minutes.")
            }
        }
        return out
    }

    /// Each further app's wakes per hour: answered 200, acknowledged, the share and the delay.
    static func appsWakes(_ report: StatsReport) -> String {
        var out = ""
        for app in report.day.apps.keys.sorted() {
            guard let hours = report.day.apps[app]?[.wake]?.hours, !hours.isEmpty else { continue }
            out += hourTable(hours, caption: "\(appTitle(app.rawValue)): wakes acknowledged, per hour")
        }
        return out.isEmpty ? "" : "<div class=\"tables\">" + out + "</div>"
    }

    /// The sweep totals' rows of each further app's kinds, under the app's name.
    static func appsSweeps(_ report: StatsReport) -> String {
        let periods = [("sweeps24h", report.lastDay), ("sweeps7d", report.lastWeek)]
        let all = report.lastDay.apps + report.lastWeek.apps
        var out = ""
        for app in Set(all.map(\.app.rawValue)).sorted() {
            for kind in inKindOrder(all.filter { $0.app.rawValue == app }.map(\.kind.name)) {
                let rows: [(String, String, KeyPath<StatsReport.PushTotals, Int64>)] = [
                    ("sent (200)", "sent", \.sent), ("failed", "failed", \.failed), ("removed", "removed", \.removed),
                ]
                for (label, key, path) in rows {
                    out += "<tr><th scope=\"row\">\(appTitle(app)): \(HTMLText.escape(kind)) \(label)</th>"
                    for (name, totals) in periods {
                        let value: Int64 =
                            totals.apps.first(where: { $0.app.rawValue == app && $0.kind.name == kind })?[keyPath: path] ?? 0
                        out += numberCell(value, figure: "\(name).apps.\(app).\(kind).\(key)")
                    }
                    out += "</tr>"
                }
            }
        }
        return out
    }
}
