import LiveActivityDomain

/// The two faces of `liveactivity-sweep stats`: text for people, `--json` for machines. Every
/// name and reason comes from the database, which any process of the web user may write: each
/// is shown escaped and cut (`OutsideText`, SPEC 7), so none writes a line of its own.
extension StatsReport {
    public var text: String {
        var lines: [String] = []
        lines.append("Active registrations: \(active)")
        for group in byTypeAndEnvironment {
            lines.append(
                "  \(OutsideText.line(Self.appPrefix(group.app.rawValue)))\(OutsideText.line(group.activityType.rawValue)) / "
                    + "\(OutsideText.line(group.environment.rawValue)): \(group.count)")
        }
        for kind in otherKinds {
            let groups = otherTargets.filter { $0.kind.name == kind }
            lines.append("\(Self.title(kind)) targets: \(groups.map(\.count).saturatedSum())")
            for group in groups {
                lines.append(
                    "  \(OutsideText.line(Self.appPrefix(group.app.rawValue)))\(OutsideText.line(group.activityType.rawValue)) / "
                        + "\(OutsideText.line(group.environment.rawValue)): \(group.count)")
            }
        }
        lines.append(
            "By age: "
                + byAge.filter { $0.label != ">8h" || $0.count > 0 }.map { "\($0.label) \($0.count)" }.joined(separator: ", "))
        if let oldestRegisteredAt {
            lines.append("Oldest registration: \(Self.age(generatedAt.subtractingSaturated(oldestRegisteredAt))) ago")
        }
        // The wake-ups are every app's (the counters of all wake targets); the lifetime figure
        // is the default app's wakes, as every line without an app's name is.
        lines.append(
            "Wakeups of active registrations\(hasFurtherApps ? " (every app)" : ""): \(activeWakeups); delivered in all runs: \(lifetimeSent)"
        )
        for totals in lifetimeOthers {
            lines.append("\(Self.title(totals.kind.name)) pushes delivered in all runs: \(totals.sent)")
        }
        // A further app's pushes apart, after its name (SPEC 7), as its registrations' lines.
        for totals in lifetimeApps {
            lines.append(
                "\(OutsideText.line(totals.app.prefix(" ")))\(OutsideText.line(totals.kind.name)) pushes delivered in all runs: \(totals.sent)"
            )
        }
        if !topWakeups.isEmpty {
            lines.append(
                "Top wakeup counts: " + topWakeups.map { "\(OutsideText.line($0.token)) \($0.count)" }.joined(separator: ", "))
        }
        for (label, totals) in [("24 h", lastDay), ("7 d", lastWeek)] {
            let rate = String(format1: totals.errorRate * 100)
            lines.append(
                "Sweeps over \(label): \(totals.runs) runs, sent \(totals.sent), failed \(totals.failed), removed \(totals.removed), expired \(totals.expired), error rate \(rate)%"
            )
            for other in totals.others + totals.apps {
                lines.append(
                    "  \(OutsideText.line(other.app.prefix(" ")))\(OutsideText.line(other.kind.name)): sent \(other.sent), failed \(other.failed), removed \(other.removed), error rate \(String(format1: other.errorRate * 100))%"
                )
            }
        }
        lines += delivery.lines
        lines += withheldLines
        let wake = PushKind.wake.name
        lines.append(
            "Waiting after failures (back-off): "
                + backingOff.filter { $0.kind.name == wake }.map { "\(OutsideText.line($0.environment.rawValue)) \($0.count)" }
                .joined(separator: ", "))
        for kind in Set(backingOff.map(\.kind.name)).subtracting([wake]).sorted() {
            lines.append(
                "\(Self.title(kind)) targets waiting after failures: "
                    + backingOff.filter { $0.kind.name == kind }.map {
                        "\(OutsideText.line($0.environment.rawValue)) \($0.count)"
                    }
                    .joined(separator: ", "))
        }
        if recentFaults.isEmpty {
            lines.append("Faults over 24 h: none")
        } else {
            lines.append("Faults over 24 h:")
            for fault in recentFaults {
                lines.append(
                    "  \(OutsideText.line(fault.scope.description)): \(OutsideText.line(fault.kind.rawValue)) \(OutsideText.line(fault.reason)) in \(fault.runs) runs (\(fault.pushes) pushes), last \(Self.age(generatedAt.subtractingSaturated(fault.lastAt))) ago"
                )
            }
        }
        if let lastRunAt {
            lines.append(
                "Last sweep: \(Self.age(generatedAt.subtractingSaturated(lastRunAt))) ago, took \(SweepSummary.seconds(lastRunDurationMilliseconds ?? 0)) s, \(OutsideText.line(lastRunOutcome?.text ?? RunOutcome.ok.text))"
            )
        } else {
            lines.append("Last sweep: none recorded")
        }
        lines += dayText
        return lines.joined(separator: "\n")
    }

    public var json: String {
        func pushJSON(_ totals: PushTotals) -> String {
            "{\"sent\":\(totals.sent),\"failed\":\(totals.failed),\"removed\":\(totals.removed),\"errorRate\":\(String(format4: totals.errorRate))}"
        }
        func othersJSON(_ others: [PushTotals]) -> String {
            "{" + others.map { "\(JSONText.outside($0.kind.name)):" + pushJSON($0) }.joined(separator: ",") + "}"
        }
        // Each further app's kinds, by app name: `{"two":{"wake":{...},"widgets":{...}}}`.
        func appsJSON(_ apps: [PushTotals]) -> String {
            "{"
                + RunTotals.names(apps.map(\.app)).map { app in
                    "\(JSONText.outside(app.rawValue)):" + othersJSON(apps.filter { $0.app == app })
                }.joined(separator: ",") + "}"
        }
        func totalsJSON(_ totals: RunTotals) -> String {
            "{\"runs\":\(totals.runs),\"sent\":\(totals.sent),\"failed\":\(totals.failed),\"removed\":\(totals.removed),\"expired\":\(totals.expired),\"errorRate\":\(String(format4: totals.errorRate)),\"others\":\(othersJSON(totals.others))"
                + (totals.apps.isEmpty ? "" : ",\"apps\":" + appsJSON(totals.apps)) + "}"
        }
        var parts: [String] = []
        parts.append("\"generatedAt\":\(generatedAt)")
        parts.append("\"active\":\(active)")
        parts.append(
            "\"byTypeAndEnvironment\":["
                + byTypeAndEnvironment.map {
                    "{\"activityType\":\(JSONText.outside($0.activityType.rawValue)),\"environment\":\(JSONText.outside($0.environment.rawValue)),\"count\":\($0.count)\(Self.appMember($0.app.rawValue))}"
                }.joined(separator: ",") + "]")
        parts.append(
            "\"otherTargets\":["
                + otherTargets.map {
                    "{\"kind\":\(JSONText.outside($0.kind.name)),\"activityType\":\(JSONText.outside($0.activityType.rawValue)),\"environment\":\(JSONText.outside($0.environment.rawValue)),\"count\":\($0.count)\(Self.appMember($0.app.rawValue))}"
                }.joined(separator: ",") + "]")
        parts.append("\"byAge\":{" + byAge.map { "\(JSONText.string($0.label)):\($0.count)" }.joined(separator: ",") + "}")
        parts.append("\"activeWakeups\":\(activeWakeups)")
        parts.append("\"lifetimeSent\":\(lifetimeSent)")
        parts.append("\"lifetimeOthers\":" + othersJSON(lifetimeOthers))
        if !lifetimeApps.isEmpty { parts.append("\"lifetimeApps\":" + appsJSON(lifetimeApps)) }
        parts.append(
            "\"topWakeups\":["
                + topWakeups.map { "{\"token\":\(JSONText.outside($0.token)),\"count\":\($0.count)}" }.joined(separator: ",")
                + "]"
        )
        parts.append("\"oldestRegisteredAt\":" + (oldestRegisteredAt.map(String.init) ?? "null"))
        parts.append("\"sweeps24h\":" + totalsJSON(lastDay))
        parts.append("\"sweeps7d\":" + totalsJSON(lastWeek))
        parts.append("\"delivery\":" + delivery.json)
        parts.append("\"withheld\":" + withheldJSON)
        let wake = PushKind.wake.name
        parts.append(
            "\"backingOff\":{"
                + backingOff.filter { $0.kind.name == wake }.map { "\(JSONText.outside($0.environment.rawValue)):\($0.count)" }
                .joined(separator: ",") + "}"
        )
        parts.append(
            "\"otherBackingOff\":["
                + backingOff.filter { $0.kind.name != wake }.map {
                    "{\"kind\":\(JSONText.outside($0.kind.name)),\"environment\":\(JSONText.outside($0.environment.rawValue)),\"count\":\($0.count)}"
                }.joined(separator: ",") + "]")
        parts.append(
            "\"faults24h\":["
                + recentFaults.map {
                    "{\"environment\":\(JSONText.outside($0.environment.rawValue)),\"pushKind\":\(JSONText.outside($0.pushKind?.name ?? "")),\"kind\":\(JSONText.outside($0.kind.rawValue)),\"reason\":\(JSONText.outside($0.reason)),\"runs\":\($0.runs),\"pushes\":\($0.pushes),\"lastAt\":\($0.lastAt)\(Self.appMember($0.app.rawValue))}"
                }.joined(separator: ",") + "]")
        parts.append("\"lastRunAt\":" + (lastRunAt.map(String.init) ?? "null"))
        parts.append("\"lastRunDurationMs\":" + (lastRunDurationMilliseconds.map(String.init) ?? "null"))
        parts.append("\"lastRunOutcome\":" + (lastRunOutcome.map { JSONText.outside($0.text) } ?? "null"))
        parts += dayJSON
        return "{" + parts.joined(separator: ",") + "}"
    }

    /// The kinds besides wakes that have targets or pushes in the report, in the kinds' order.
    var otherKinds: [String] {
        let present = Set(otherTargets.map(\.kind.name))
        let order = PushKind.all.map(\.name)
        return present.sorted { (order.firstIndex(of: $0) ?? .max, $0) < (order.firstIndex(of: $1) ?? .max, $1) }
    }

    /// `Widgets` for `widgets`: a kind's name at the start of a line.
    static func title(_ kind: String) -> String {
        OutsideText.line(kind.prefix(1).uppercased() + kind.dropFirst())
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
