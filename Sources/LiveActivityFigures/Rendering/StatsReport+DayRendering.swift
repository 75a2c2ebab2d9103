import LiveActivityDomain

/// `stats` and `stats --json` of the figures the status page adds (`StatsReport.Day`, the alarm):
/// the same values the page draws, so a machine reads what a person sees.
extension StatsReport {
    /// The alarm and the 24 hours' failure reasons, for the text report.
    var dayText: [String] {
        var lines: [String] = []
        let health = SweepHealth(self)
        if health.isAlarm {
            lines.append("ALARM: " + health.alarms.map(\.words).joined(separator: "; "))
        }
        if day.hosts.count > 1 {
            lines.append(
                "Hosts (last sweep each): "
                    + day.hosts.map { run in
                        "\(OutsideText.line(run.host)) \(StatsReport.age(generatedAt.subtractingSaturated(run.startedAt))) ago"
                            + (run.failed ? " (exited non-zero)" : "")
                    }.joined(separator: ", "))
        }
        let kinds =
            [PushKind.wake.name]
            + Set((day.failureReasons + day.removalReasons).map(\.kind.name)).subtracting([PushKind.wake.name]).sorted()
        for kind in kinds {
            let prefix = kind == PushKind.wake.name ? "" : "\(StatsReport.title(kind)) "
            for (label, reasons) in [
                ("\(prefix)\(prefix.isEmpty ? "Failure" : "failure") reasons over 24 h", day.failureReasons),
                ("\(prefix)\(prefix.isEmpty ? "Removal" : "removal") reasons over 24 h", day.removalReasons),
            ] {
                let ofKind = reasons.filter { $0.kind.name == kind }
                guard !ofKind.isEmpty else { continue }
                lines.append("\(label): " + ofKind.map { "\(OutsideText.line($0.reason)) \($0.count)" }.joined(separator: ", "))
            }
        }
        return lines
    }

    /// The JSON members of the day and the alarm, for `json`.
    var dayJSON: [String] {
        let wake = PushKind.wake.name
        func reasons(_ list: [ReasonCount], kind: String = PushKind.wake.name) -> String {
            "{" + list.filter { $0.kind.name == kind }.map { "\(JSONText.outside($0.reason)):\($0.count)" }.joined(separator: ",")
                + "}"
        }
        func optional(_ value: Int64?) -> String { value.map(String.init) ?? "null" }
        func bucketsJSON(_ list: [SweepBucket]) -> String {
            "["
                + list.map {
                    "{\"start\":\($0.start),\"runs\":\($0.runs),\"active\":\($0.active),\"sent\":\($0.sent),\"failed\":\($0.failed)}"
                }.joined(separator: ",") + "]"
        }
        let today = self.day
        let otherKinds = Set(today.otherBuckets.keys).union((today.failureReasons + today.removalReasons).map(\.kind.name))
            .subtracting([wake]).sorted()
        let others =
            "{"
            + otherKinds.map { kind in
                "\(JSONText.outside(kind)):{\"buckets\":\(bucketsJSON(today.otherBuckets[kind] ?? [])),"
                    + "\"failureReasons\":\(reasons(today.failureReasons, kind: kind)),\"removalReasons\":\(reasons(today.removalReasons, kind: kind))}"
            }.joined(separator: ",") + "}"
        func hoursJSON(_ list: [WakeHour]) -> String {
            "["
                + list.map {
                    "{\"start\":\($0.start),\"answered\":\($0.answered),\"acknowledged\":\(optional($0.acknowledged)),"
                        + "\"delayMedianMs\":\(optional($0.delayMedianMilliseconds)),\"delayP90Ms\":\(optional($0.delayP90Milliseconds))}"
                }.joined(separator: ",") + "]"
        }
        // Each further app's 24 hours apart (SPEC 7), by app then kind: `{"two":{"wake":{"buckets":
        // [...],"hours":[...]}}}`; none with one app.
        let order = { (kind: PushKind) in PushKind.all.firstIndex(of: kind) ?? .max }
        let apps =
            today.apps.isEmpty
            ? ""
            : ",\"apps\":{"
                + today.apps.keys.sorted().map { app in
                    let kinds = today.apps[app] ?? [:]
                    return "\(JSONText.outside(app.rawValue)):{"
                        + kinds.keys.sorted { order($0) < order($1) }.map { kind in
                            let figures = kinds[kind] ?? KindDay()
                            return "\(JSONText.outside(kind.name)):{\"buckets\":\(bucketsJSON(figures.buckets))"
                                + (kind == .wake ? ",\"hours\":\(hoursJSON(figures.hours))" : "") + "}"
                        }.joined(separator: ",") + "}"
                }.joined(separator: ",") + "}"
        let day =
            "{\"start\":\(day.start),\"bucketMinutes\":\(Day.bucketMilliseconds / 60_000),\"buckets\":\(bucketsJSON(day.buckets)),"
            + "\"hours\":\(hoursJSON(day.hours)),\"failureReasons\":\(reasons(day.failureReasons)),"
            + "\"removalReasons\":\(reasons(day.removalReasons)),\"otherKinds\":\(others)\(apps)}"
        let health = SweepHealth(self)
        return [
            "\"day\":" + day,
            "\"lastRunFinishedAt\":" + optional(self.day.lastRunFinishedAt),
            "\"lastRunExitedNonZero\":\(self.day.lastRunExitedNonZero)",
            "\"alarms\":" + JSONText.array(health.alarms.map(\.name)),
            "\"stoppedHosts\":"
                + JSONText.array(
                    health.alarms.compactMap { alarm in
                        if case .hostStopped(let host, _) = alarm { return OutsideText.cut(host) } else { return nil }
                    }),
            "\"hosts\":["
                + self.day.hosts.map { run in
                    "{\"host\":\(JSONText.outside(run.host)),\"lastRunAt\":\(run.startedAt),\"lastRunDurationMs\":\(run.durationMilliseconds),"
                        + "\"lastRunFinishedAt\":\(run.finishedAt),\"lastRunExitedNonZero\":\(run.failed)}"
                }.joined(separator: ",") + "]",
        ]
    }
}

extension SweepHealth.Alarm {
    /// The alarm in a few words, for the text report.
    var words: String {
        switch self {
        case .noSweepRecorded: "no sweep recorded (is cron running liveactivity-sweep?)"
        case .noSweepFinishedLately(let milliseconds) where milliseconds < 0:
            "no sweep finished in the last 3 minutes (the last one recorded finished \(StatsReport.age(milliseconds.negatedSaturated())) "
                + "ahead of this clock, which went back since)"
        case .noSweepFinishedLately(let milliseconds):
            "no sweep finished in the last 3 minutes (last \(StatsReport.age(milliseconds)) ago)"
        case .lastSweepFailed: "the last sweep exited non-zero"
        case .hostStopped(let host, let milliseconds):
            "host \(OutsideText.line(host)) recorded no sweep in the last 3 minutes (its last finished "
                + (milliseconds < 0
                    ? "\(StatsReport.age(milliseconds.negatedSaturated())) ahead of this clock)"
                    : "\(StatsReport.age(milliseconds)) ago)")
                + "; is its cron running?"
        }
    }
}
