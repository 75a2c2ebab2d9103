import LiveActivityDomain

/// The delivery figures in `stats` (text lines) and `stats --json` (SPEC 7).
extension DeliveryReport {
    /// One line per window and type, and one of acks by outcome per window; then each further
    /// app's, its name before the type (`Delivery over 24 h, two charging`) or after the window
    /// (`Acks over 24 h, two`), as its registrations' lines name it (SPEC 7).
    public var lines: [String] {
        apps.keys.sorted().reduce(lines(of: .defaultApp)) { lines, app in
            lines + (apps[app]?.lines(of: app) ?? [])
        }
    }

    /// The lines of these figures, as `app`'s (nothing added for the default app's).
    func lines(of app: AppName) -> [String] {
        // The app's name and the type as the database holds them (SPEC 7: escaped and cut).
        let before = OutsideText.line(app.prefix(" "))
        let after = app.isDefault ? "" : ", " + OutsideText.line(app.rawValue)
        var lines: [String] = []
        for (label, windows, acks) in [("24 h", lastDay, acksLastDay), ("7 d", lastWeek, acksLastWeek)] {
            for window in windows {
                lines.append(
                    "Delivery over \(label), \(before)\(OutsideText.line(window.activityType?.name ?? "")): "
                        + Self.describe(window))
            }
            lines.append("Acks over \(label)\(after): " + Self.describe(acks))
        }
        for (label, windows) in [("24 h", otherKindsLastDay), ("7 d", otherKindsLastWeek)] {
            for window in windows {
                lines.append("\(StatsReport.title(window.kind.name)) pushes over \(label)\(after): " + Self.describeOther(window))
            }
        }
        return lines
    }

    /// Another kind's window: its 200s and how often a target got one per hour it was pushed
    /// (such pushes are not acknowledged).
    static func describeOther(_ window: Window) -> String {
        guard window.delivered > 0 else { return "no push answered 200" }
        var text = "\(window.delivered) answered 200"
        if let pushes = window.pushesPerRegistrationHour { text += ", per target-hour \(String(format1: pushes)) pushes" }
        return text
    }

    static func describe(_ window: Window) -> String {
        guard window.delivered > 0 else { return "no push answered 200" }
        var text = "\(window.delivered) answered 200, \(window.acked) acked"
        if let share = window.ackedShare { text += " (\(String(format1: share * 100))%)" }
        if let median = window.delayMedian, let p90 = window.delayP90 {
            text += ", delay median \(String(format1: median)) s / p90 \(String(format1: p90)) s"
        }
        if let pushes = window.pushesPerRegistrationHour, let wakes = window.wakesPerRegistrationHour {
            text +=
                ", per registration-hour \(String(format1: pushes)) pushes and \(String(format1: wakes)) acked wakes"
                + " (Apple advises \(Int(advisedPerHour.lowerBound))-\(Int(advisedPerHour.upperBound)))"
        }
        return text
    }

    static func describe(_ acks: [AckOutcome: Int64]) -> String {
        AckOutcome.allCases.map { "\($0.rawValue) \(acks[$0] ?? 0)" }.joined(separator: ", ")
    }

    public var json: String {
        func optional(_ value: Double?) -> String { value.map { String(format4: $0) } ?? "null" }
        func windowJSON(_ window: Window) -> String {
            "{\"activityType\":\(JSONText.outside(window.activityType?.name ?? "")),\"delivered\":\(window.delivered),\"acked\":\(window.acked),"
                + "\"ackedShare\":\(optional(window.ackedShare)),\"delayMedianSeconds\":\(optional(window.delayMedian)),"
                + "\"delayP90Seconds\":\(optional(window.delayP90)),\"delaySumMs\":\(window.delaySumMilliseconds),"
                + "\"registrationHours\":\(window.registrationHours),"
                + "\"pushesPerRegistrationHour\":\(optional(window.pushesPerRegistrationHour)),"
                + "\"wakesPerRegistrationHour\":\(optional(window.wakesPerRegistrationHour))}"
        }
        func acksJSON(_ acks: [AckOutcome: Int64]) -> String {
            "{" + AckOutcome.allCases.map { "\"\($0.rawValue)\":\(acks[$0] ?? 0)" }.joined(separator: ",") + "}"
        }
        func period(_ windows: [Window], _ acks: [AckOutcome: Int64]) -> String {
            "{\"byType\":[" + windows.map(windowJSON).joined(separator: ",") + "],\"acks\":" + acksJSON(acks) + "}"
        }
        func otherJSON(_ window: Window) -> String {
            "{\"kind\":\(JSONText.outside(window.kind.name)),\"delivered\":\(window.delivered),\"targetHours\":\(window.registrationHours),"
                + "\"pushesPerTargetHour\":\(optional(window.pushesPerRegistrationHour))}"
        }
        func members(_ report: DeliveryReport) -> String {
            "\"24h\":\(period(report.lastDay, report.acksLastDay)),\"7d\":\(period(report.lastWeek, report.acksLastWeek)),"
                + "\"otherKinds\":{\"24h\":[\(report.otherKindsLastDay.map(otherJSON).joined(separator: ","))],"
                + "\"7d\":[\(report.otherKindsLastWeek.map(otherJSON).joined(separator: ","))]},"
                + "\"acksLifetime\":\(acksJSON(report.acksLifetime))"
        }
        // Each further app's figures apart, by name, in the same shape (SPEC 7); none with one app.
        let apps =
            self.apps.isEmpty
            ? ""
            : ",\"apps\":{"
                + self.apps.keys.sorted().map { app in
                    "\(JSONText.outside(app.rawValue)):{" + members(self.apps[app] ?? DeliveryReport()) + "}"
                }.joined(separator: ",") + "}"
        return "{" + members(self) + apps
            + ",\"advisedPerHour\":[\(Int(Self.advisedPerHour.lowerBound)),\(Int(Self.advisedPerHour.upperBound))]}"
    }
}
