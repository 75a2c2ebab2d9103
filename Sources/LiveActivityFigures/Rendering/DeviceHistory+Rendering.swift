import LiveActivityDomain

/// The two faces of `liveactivity-sweep history TOKEN` (SPEC 7): text for the operator whose
/// user says "my Live Activity did not update", `--json` for machines. The token is shown by its
/// first 8 characters only, as in every log; reasons and apns-ids, which come from APNs and the
/// database, escaped and cut (`OutsideText`).
extension DeviceHistory {
    /// The text, as of `now` (ms); `policy` gives the effective intervals, `expiry` (ms) the
    /// lifetime. The wake target's lines read as a registration's always did; each other target
    /// (a widgets target) follows with its own.
    public func text(now: Int64, policy: IntervalPolicy, expiry: Int64) -> String {
        let row = registration
        var lines = [
            // The app where it is not the default one (SPEC 6): a one-app deployment reads as before.
            "Registration \(row.token.logPrefix) (\(row.app.isDefault ? "" : "app \(row.app), ")\(row.activityType.rawValue), "
                + "\(row.environment.rawValue))"
        ]
        let wake = row.wake
        lines.append("  interval: \(Self.interval(wake, row, policy))")
        // What the app reported and what it made of the cadence, where it reported anything: a
        // registration of an app that says nothing reads as before.
        let cadence = policy.cadence(row.activityType, requested: wake.requestedInterval)
        if let explanation = cadence.explanation(wake.cadence) { lines.append("  cadence: \(explanation)") }
        if let device = wake.cadence.device.words { lines.append("  device: \(device) (as the app last said)") }
        lines += [
            "  registered: \(Self.time(row.registeredAt, now: now)); expires \(Self.time(row.registeredAt + expiry, now: now))",
            "  next push: \(Self.time(wake.nextPushAt, now: now))",
            "  wakeups: \(wake.pushCount); failures in a row: \(wake.consecutiveFailures); last reason: \(OutsideText.line(wake.lastError ?? "none"))",
        ]
        lines += Self.attemptLines(wake.attempts, heading: "Attempts", acknowledged: wake.kind.acknowledged, now: now)
        for target in row.others {
            let name = target.kind.name.prefix(1).uppercased() + target.kind.name.dropFirst()
            lines += [
                "\(name) target \(target.token.logPrefix) (its own token)",
                "  interval: \(Self.interval(target, row, policy))",
                "  next push: \(Self.time(target.nextPushAt, now: now))",
                "  pushes: \(target.pushCount); failures in a row: \(target.consecutiveFailures); last reason: \(OutsideText.line(target.lastError ?? "none"))",
            ]
            lines += Self.attemptLines(
                target.attempts, heading: "\(name) attempts", acknowledged: target.kind.acknowledged, now: now)
        }
        // The hints the app's diagnostics give for the same registration (one function for both).
        let hints = DiagnosticHint.hints(for: row, policy: policy, expiry: expiry, now: now)
        if !hints.isEmpty {
            lines.append("Hints (as /wakeup/diagnostics gives them to the app):")
            lines += hints.map { "  \($0.code.rawValue): \($0.text)" }
        }
        return lines.joined(separator: "\n")
    }

    /// `60 s, the type's (the app asked for none)`, or what the app asked and what applies.
    static func interval(_ target: PushTarget, _ row: Registration, _ policy: IntervalPolicy) -> String {
        let effective = policy.effectiveSeconds(target.kind, row.activityType, requested: target.requestedInterval)
        guard let asked = target.requestedInterval else {
            let whose = target.kind == .wake ? "the type's" : "the \(target.kind.name) setting's"
            return "\(effective) s, \(whose) (the app asked for none)"
        }
        return asked == effective
            ? "\(effective) s, as the app asked" : "\(effective) s (the app asked for \(asked) s; clamped to the bounds)"
    }

    /// The ack column only for a kind the app acknowledges (a widgets push wakes no app code).
    static func attemptLines(_ attempts: [PushAttempt], heading: String, acknowledged: Bool, now: Int64) -> [String] {
        guard !attempts.isEmpty else { return ["\(heading): none yet (pushed at the next sweep)"] }
        return ["\(heading), newest first (\(attempts.count), at most \(PushAttempt.kept) kept):"]
            + attempts.map { "  " + line($0, acknowledged: acknowledged, now: now) }
    }

    /// `--json`: times in Unix milliseconds, the intervals in seconds; the wake target's at the
    /// top level as a registration's always were, each other target under its kind's name; the
    /// diagnostics' hints as of `now` (ms).
    public func json(policy: IntervalPolicy, expiry: Int64, now: Int64) -> String {
        let row = registration
        func number(_ value: Int64?) -> String { value.map(String.init) ?? "null" }
        func text(_ value: String?) -> String { value.map { JSONText.outside($0) } ?? "null" }
        func attemptsJSON(_ attempts: [PushAttempt]) -> String {
            "["
                + attempts.map { attempt in
                    "{\"sentAt\":\(attempt.sentAt),\"answeredAt\":\(attempt.answeredAt),\"status\":\(number(attempt.status.map(Int64.init))),"
                        + "\"reason\":\(text(attempt.reason)),\"apnsID\":\(text(attempt.apnsID)),\"ackedAt\":\(number(attempt.ackedAt)),"
                        + "\"ackDelayMs\":\(number(attempt.ackDelayMilliseconds))}"
                }.joined(separator: ",") + "]"
        }
        func targetParts(_ target: PushTarget, pushes: String) -> [String] {
            [
                "\"interval\":\(policy.effectiveSeconds(target.kind, row.activityType, requested: target.requestedInterval))",
                "\"intervalAsked\":\(number(target.requestedInterval.map(Int64.init)))",
                "\"nextPushAt\":\(target.nextPushAt)", "\"lastPushAt\":\(number(target.lastPushAt))",
                "\"\(pushes)\":\(target.pushCount)", "\"failures\":\(target.consecutiveFailures)",
                "\"lastReason\":\(text(target.lastError))", "\"attempts\":" + attemptsJSON(target.attempts),
            ]
        }
        var parts = [
            "\"token\":\(JSONText.string(String(row.token.hex.prefix(8))))",
            "\"activityType\":\(JSONText.string(row.activityType.rawValue))",
            "\"environment\":\(JSONText.string(row.environment.rawValue))",
            "\"registeredAt\":\(row.registeredAt)", "\"expiresAt\":\(row.registeredAt + expiry)",
        ]
        if !row.app.isDefault { parts.insert("\"app\":\(JSONText.string(row.app.rawValue))", at: 1) }
        parts += targetParts(row.wake, pushes: "wakeups")
        if row.wake.cadence != .base {
            let cadence = policy.cadence(row.activityType, requested: row.wake.requestedInterval)
            let state = row.wake.cadence
            func bool(_ value: Bool?) -> String { value.map { $0 ? "true" : "false" } ?? "null" }
            parts.append(
                "\"cadence\":{\"mode\":\(JSONText.string(cadence.mode(state).rawValue)),"
                    + "\"effectiveInterval\":\(cadence.effective(state) / 1000),\"unchangedAcks\":\(state.unchangedAcks),"
                    + "\"withheld\":\(cadence.pause(state).map { JSONText.string($0.rawValue) } ?? "null")}")
            parts.append(
                "\"device\":{\"activities\":\(state.device.activities.map(String.init) ?? "null"),"
                    + "\"backgroundRefresh\":\(state.device.backgroundRefresh.map { JSONText.string($0.rawValue) } ?? "null"),"
                    + "\"lowPower\":\(bool(state.device.lowPower))}")
        }
        for target in row.others {
            let inner =
                ["\"token\":\(JSONText.string(String(target.token.hex.prefix(8))))"] + targetParts(target, pushes: "pushes")
            parts.append("\(JSONText.string(target.kind.name)):{" + inner.joined(separator: ",") + "}")
        }
        parts.append("\"hints\":" + DiagnosticHint.json(DiagnosticHint.hints(for: row, policy: policy, expiry: expiry, now: now)))
        return "{" + parts.joined(separator: ",") + "}"
    }

    /// One attempt: when, the answer, its apns-id, and the ack where the kind has one.
    static func line(_ attempt: PushAttempt, acknowledged: Bool, now: Int64) -> String {
        var line = iso(attempt.answeredAt) + "  "
        switch (attempt.status, attempt.reason) {
        case (200?, _): line += "200"
        case (let status?, let reason?): line += "\(status) \(OutsideText.line(reason))"
        case (let status?, nil): line += "\(status)"
        case (nil, let reason): line += "\(OutsideText.line(reason ?? "no answer")) (no answer)"
        }
        if let id = attempt.apnsID { line += "  apns-id \(OutsideText.line(id))" }
        if attempt.status == 200 && acknowledged {
            if let acked = attempt.ackedAt {
                line += "  acked \(iso(acked)) (after \(SweepSummary.seconds(attempt.ackDelayMilliseconds ?? 0)) s)"
            } else {
                line += "  not acked"
            }
        }
        return line
    }

    /// `2026-12-01T09:10:00Z (12 min ago)` or `(in 3 min)`.
    static func time(_ milliseconds: Int64, now: Int64) -> String {
        let distance = milliseconds - now
        let relative = distance >= 0 ? "in \(StatsReport.age(distance))" : "\(StatsReport.age(-distance)) ago"
        return "\(iso(milliseconds)) (\(relative))"
    }

    static func iso(_ milliseconds: Int64) -> String { UTCTime(milliseconds: milliseconds).iso8601 }
}
