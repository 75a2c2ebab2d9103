import LiveActivityDomain

/// The cadence's family of `/wakeup/metrics` (SPEC 5, "Cadence"): wakes not sent because they
/// could not help, by reason, per activity type and environment, a lifetime counter that never
/// goes down. The default app's series are all there, 0 until a run withholds one (a dashboard's
/// rate stays continuous); each further app's where it has any, with its `app` label.
extension PrometheusMetrics {
    static func renderWithheld(_ snapshot: MetricsSnapshot, into out: inout String) {
        let name = "liveactivity_wakes_withheld_total"
        out += "# HELP \(name) Wake pushes the cadence did not send because they could not help, by reason.\n"
        out += "# TYPE \(name) counter\n"
        func series(_ place: WithheldWakes.Place, _ reason: Cadence.Withheld) -> String {
            let count = StatsReport.Withheld.count(in: snapshot.withheld, at: place, reason)
            return "\(name){activity_type=\"\(place.activityType.rawValue)\",environment=\"\(place.environment.rawValue)\","
                + "reason=\"\(reason.rawValue)\"\(appLabel(place.app.rawValue))} \(count)\n"
        }
        for type in ActivityType.allCases {
            for environment in APNsEnvironment.allCases {
                for reason in Cadence.Withheld.allCases {
                    out += series(WithheldWakes.Place(activityType: type, environment: environment), reason)
                }
            }
        }
        let further = Set(snapshot.withheld.map(\.group.place).filter { !$0.app.isDefault })
        for place in further.sorted(by: WithheldWakes.Place.ordered) {
            for reason in Cadence.Withheld.allCases { out += series(place, reason) }
        }
    }
}
