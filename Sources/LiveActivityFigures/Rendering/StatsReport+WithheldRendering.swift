import LiveActivityDomain

/// The wakes the cadence withheld, in `stats`' two faces: a line per app, type and environment
/// with each reason's count over 24 h / 7 d / every run, shown only once a run withheld one (a
/// deployment whose app reports no device state reads as before); in `--json` always, so a
/// machine finds the same shape whatever the apps send.
extension StatsReport {
    var withheldLines: [String] {
        guard !withheld.isEmpty else { return [] }
        var lines = ["Wakes withheld by the cadence (24 h / 7 d / all runs):"]
        for place in withheld.places {
            let counts = Cadence.Withheld.allCases.map { reason in
                let figures = [withheld.lastDay, withheld.lastWeek, withheld.lifetime].map {
                    String(Withheld.count(in: $0, at: place, reason))
                }
                return "\(reason.rawValue) " + figures.joined(separator: "/")
            }
            lines.append(
                "  \(place.app.prefix(" "))\(place.activityType.rawValue) / \(place.environment.rawValue): "
                    + counts.joined(separator: ", "))
        }
        return lines
    }

    /// `{"lastDay":[...],"lastWeek":[...],"lifetime":[...]}`, each entry one app, type,
    /// environment and reason with its count (`app` only for an app besides the default one).
    var withheldJSON: String {
        func list(_ entries: [WithheldWakes]) -> String {
            "["
                + entries.map {
                    "{\"activityType\":\(JSONText.string($0.group.activityType.rawValue)),\"environment\":\(JSONText.string($0.group.environment.rawValue)),\"reason\":\(JSONText.string($0.group.reason.rawValue)),\"count\":\($0.count)\(Self.appMember($0.group.app.rawValue))}"
                }.joined(separator: ",") + "]"
        }
        return
            "{\"lastDay\":\(list(withheld.lastDay)),\"lastWeek\":\(list(withheld.lastWeek)),\"lifetime\":\(list(withheld.lifetime))}"
    }
}
