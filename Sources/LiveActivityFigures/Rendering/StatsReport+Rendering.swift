import LiveActivityDomain

/// The two faces of `liveactivity-sweep stats`: text for people, `--json` for machines. Every
/// name and reason comes from the database, which any process of the web user may write: each
/// is shown escaped and cut (`OutsideText`, SPEC 7), so none writes a line of its own.
extension StatsReport {
    public var text: String {
        var lines: [String] = []
        lines.append("Active registrations: \(active)")
        for group in byTypeAndEnvironment {
            lines.append("  \(OutsideText.line(group.activityType)) / \(OutsideText.line(group.environment)): \(group.count)")
        }
        lines.append(
            "By age: "
                + byAge.filter { $0.label != ">8h" || $0.count > 0 }.map { "\($0.label) \($0.count)" }.joined(separator: ", "))
        if let oldestRegisteredAt {
            lines.append("Oldest registration: \(Self.age(generatedAt - oldestRegisteredAt)) ago")
        }
        lines.append("Wakeups of active registrations: \(activeWakeups); delivered in all runs: \(lifetimeSent)")
        if !topWakeups.isEmpty {
            lines.append(
                "Top wakeup counts: " + topWakeups.map { "\(OutsideText.line($0.token)) \($0.count)" }.joined(separator: ", "))
        }
        for (label, totals) in [("24 h", lastDay), ("7 d", lastWeek)] {
            let rate = String(format1: totals.errorRate * 100)
            lines.append(
                "Sweeps over \(label): \(totals.runs) runs, sent \(totals.sent), failed \(totals.failed), removed \(totals.removed), expired \(totals.expired), error rate \(rate)%"
            )
        }
        lines += delivery.lines
        lines.append(
            "Waiting after failures (back-off): "
                + backingOff.map { "\(OutsideText.line($0.environment)) \($0.count)" }.joined(separator: ", "))
        if recentFaults.isEmpty {
            lines.append("Faults over 24 h: none")
        } else {
            lines.append("Faults over 24 h:")
            for fault in recentFaults {
                lines.append(
                    "  \(OutsideText.line(fault.environment)): \(OutsideText.line(fault.kind)) \(OutsideText.line(fault.reason)) in \(fault.runs) runs (\(fault.pushes) pushes), last \(Self.age(generatedAt - fault.lastAt)) ago"
                )
            }
        }
        if let lastRunAt {
            lines.append(
                "Last sweep: \(Self.age(generatedAt - lastRunAt)) ago, took \(SweepSummary.seconds(lastRunDurationMilliseconds ?? 0)) s, \(OutsideText.line(lastRunOutcome ?? "ok"))"
            )
        } else {
            lines.append("Last sweep: none recorded")
        }
        lines += dayText
        return lines.joined(separator: "\n")
    }

    public var json: String {
        func totalsJSON(_ totals: RunTotals) -> String {
            "{\"runs\":\(totals.runs),\"sent\":\(totals.sent),\"failed\":\(totals.failed),\"removed\":\(totals.removed),\"expired\":\(totals.expired),\"errorRate\":\(String(format4: totals.errorRate))}"
        }
        var parts: [String] = []
        parts.append("\"generatedAt\":\(generatedAt)")
        parts.append("\"active\":\(active)")
        parts.append(
            "\"byTypeAndEnvironment\":["
                + byTypeAndEnvironment.map {
                    "{\"activityType\":\(JSONText.outside($0.activityType)),\"environment\":\(JSONText.outside($0.environment)),\"count\":\($0.count)}"
                }.joined(separator: ",") + "]")
        parts.append("\"byAge\":{" + byAge.map { "\(JSONText.string($0.label)):\($0.count)" }.joined(separator: ",") + "}")
        parts.append("\"activeWakeups\":\(activeWakeups)")
        parts.append("\"lifetimeSent\":\(lifetimeSent)")
        parts.append(
            "\"topWakeups\":["
                + topWakeups.map { "{\"token\":\(JSONText.outside($0.token)),\"count\":\($0.count)}" }.joined(separator: ",")
                + "]"
        )
        parts.append("\"oldestRegisteredAt\":" + (oldestRegisteredAt.map(String.init) ?? "null"))
        parts.append("\"sweeps24h\":" + totalsJSON(lastDay))
        parts.append("\"sweeps7d\":" + totalsJSON(lastWeek))
        parts.append("\"delivery\":" + delivery.json)
        parts.append(
            "\"backingOff\":{" + backingOff.map { "\(JSONText.outside($0.environment)):\($0.count)" }.joined(separator: ",") + "}"
        )
        parts.append(
            "\"faults24h\":["
                + recentFaults.map {
                    "{\"environment\":\(JSONText.outside($0.environment)),\"kind\":\(JSONText.outside($0.kind)),\"reason\":\(JSONText.outside($0.reason)),\"runs\":\($0.runs),\"pushes\":\($0.pushes),\"lastAt\":\($0.lastAt)}"
                }.joined(separator: ",") + "]")
        parts.append("\"lastRunAt\":" + (lastRunAt.map(String.init) ?? "null"))
        parts.append("\"lastRunDurationMs\":" + (lastRunDurationMilliseconds.map(String.init) ?? "null"))
        parts.append("\"lastRunOutcome\":" + (lastRunOutcome.map { JSONText.outside($0) } ?? "null"))
        parts += dayJSON
        return "{" + parts.joined(separator: ",") + "}"
    }

    static func age(_ milliseconds: Int64) -> String {
        let seconds = max(0, milliseconds / 1000)
        if seconds < 120 { return "\(seconds) s" }
        if seconds < 7200 { return "\(seconds / 60) min" }
        return "\(seconds / 3600) h \(seconds % 3600 / 60) min"
    }
}

extension String {
    /// One decimal, without Foundation's locale-dependent formatting.
    init(format1 value: Double) {
        let tenths = Int(saturating: (value * 10).rounded())
        self = "\(tenths / 10).\(abs(tenths % 10))"
    }

    /// Four decimals.
    init(format4 value: Double) {
        let scaled = Int(saturating: (value * 10_000).rounded())
        let fraction = String(abs(scaled % 10_000))
        self = "\(scaled / 10_000)." + String(repeating: "0", count: 4 - fraction.count) + fraction
    }
}
