import LiveActivityDomain

/// The status page's section of the wakes the cadence withheld (SPEC 5, "Cadence"): per app,
/// type and environment, each reason's count over 24 h, 7 d and every run. Shown once a run
/// withheld one; a deployment whose app reports no device state sees the page as before.
extension StatusPage {
    static func withheld(_ report: StatsReport) -> String {
        let withheld = report.withheld
        guard !withheld.isEmpty else { return "" }
        let reasons = Cadence.Withheld.allCases
        var out =
            "<section aria-labelledby=\"withheld-heading\"><h2 id=\"withheld-heading\">Wakes withheld: could not help</h2>"
        out += "<p class=\"small\">Wakes not sent because the app said they could not help: no activity left to update, "
        out += "Background App Refresh off (paused), Low Power Mode, or data that did not change (stretched). Each is a "
        out += "background launch the phone keeps for a wake that can help; one counted for each time the base interval "
        out += "would have pushed.</p>"
        out += "<div class=\"scroll\"><table>" + tableHead(["Over"], numbers: reasons.map(Self.title) + ["All"])
        for place in withheld.places {
            let name = "\(place.app.prefix("/"))\(place.activityType.rawValue)/\(place.environment.rawValue)"
            out += "<tbody><tr><th scope=\"rowgroup\" colspan=\"\(reasons.count + 2)\" class=\"group\">"
            out +=
                "\(HTMLText.escape(place.app.prefix(" ")))\(place.activityType.rawValue) / \(place.environment.rawValue)</th></tr>"
            for (label, list, window) in [
                ("24 h", withheld.lastDay, "lastDay"), ("7 d", withheld.lastWeek, "lastWeek"),
                ("All runs", withheld.lifetime, "lifetime"),
            ] {
                let counts = reasons.map { StatsReport.Withheld.count(in: list, at: place, $0) }
                out += "<tr><th scope=\"row\">\(label)</th>"
                for (reason, count) in zip(reasons, counts) {
                    out += numberCell(count, figure: "withheld.\(window).\(name).\(reason.rawValue)")
                }
                out += numberCell(counts.saturatedSum()) + "</tr>"
            }
            out += "</tbody>"
        }
        return out + "</table></div></section>"
    }

    /// A reason's column head, for a person.
    static func title(_ reason: Cadence.Withheld) -> String {
        switch reason {
        case .noActivity: "No activity"
        case .paused: "Paused"
        case .lowPower: "Low Power"
        case .stretched: "Stretched"
        }
    }
}
