import LiveActivityDomain

/// The two faces of `liveactivity-sweep history TOKEN` (SPEC 7): text for the operator whose
/// user says "my Live Activity did not update", `--json` for machines. The token is shown by its
/// first 8 characters only, as in every log; reasons and apns-ids, which come from APNs and the
/// database, escaped and cut (`OutsideText`).
extension DeviceHistory {
    /// The text, as of `now` (ms); `policy` gives the effective interval, `expiry` (ms) the lifetime.
    public func text(now: Int64, policy: IntervalPolicy, expiry: Int64) -> String {
        let row = registration
        let effective = policy.effectiveSeconds(row.activityType, requested: row.requestedInterval)
        let interval: String
        if let asked = row.requestedInterval {
            interval =
                asked == effective
                ? "\(effective) s, as the app asked" : "\(effective) s (the app asked for \(asked) s; clamped to the bounds)"
        } else {
            interval = "\(effective) s, the type's (the app asked for none)"
        }
        var lines = [
            "Registration \(row.token.logPrefix) (\(row.activityType.rawValue), \(row.environment.rawValue))",
            "  interval: \(interval)",
            "  registered: \(Self.time(row.registeredAt, now: now)); expires \(Self.time(row.registeredAt + expiry, now: now))",
            "  next push: \(Self.time(row.nextPushAt, now: now))",
            "  wakeups: \(row.wakeupCount); failures in a row: \(row.consecutiveFailures); last reason: \(OutsideText.line(row.lastError ?? "none"))",
        ]
        if attempts.isEmpty {
            lines.append("Attempts: none yet (pushed at the next sweep)")
        } else {
            lines.append("Attempts, newest first (\(attempts.count), at most \(PushAttempt.kept) kept):")
            for attempt in attempts { lines.append("  " + Self.line(attempt, now: now)) }
        }
        return lines.joined(separator: "\n")
    }

    /// `--json`: times in Unix milliseconds, the interval in seconds.
    public func json(policy: IntervalPolicy, expiry: Int64) -> String {
        let row = registration
        func number(_ value: Int64?) -> String { value.map(String.init) ?? "null" }
        func text(_ value: String?) -> String { value.map { JSONText.outside($0) } ?? "null" }
        let attemptsJSON = attempts.map { attempt in
            "{\"sentAt\":\(attempt.sentAt),\"answeredAt\":\(attempt.answeredAt),\"status\":\(number(attempt.status.map(Int64.init))),"
                + "\"reason\":\(text(attempt.reason)),\"apnsID\":\(text(attempt.apnsID)),\"ackedAt\":\(number(attempt.ackedAt)),"
                + "\"ackDelayMs\":\(number(attempt.ackDelayMilliseconds))}"
        }
        let parts = [
            "\"token\":\(JSONText.string(String(row.token.hex.prefix(8))))",
            "\"activityType\":\(JSONText.string(row.activityType.rawValue))",
            "\"environment\":\(JSONText.string(row.environment.rawValue))",
            "\"interval\":\(policy.effectiveSeconds(row.activityType, requested: row.requestedInterval))",
            "\"intervalAsked\":\(number(row.requestedInterval.map(Int64.init)))",
            "\"registeredAt\":\(row.registeredAt)", "\"expiresAt\":\(row.registeredAt + expiry)",
            "\"nextPushAt\":\(row.nextPushAt)", "\"lastPushAt\":\(number(row.lastPushAt))",
            "\"wakeups\":\(row.wakeupCount)", "\"failures\":\(row.consecutiveFailures)", "\"lastReason\":\(text(row.lastError))",
            "\"attempts\":[" + attemptsJSON.joined(separator: ",") + "]",
        ]
        return "{" + parts.joined(separator: ",") + "}"
    }

    /// One attempt: when, the answer, its apns-id, and the ack.
    static func line(_ attempt: PushAttempt, now: Int64) -> String {
        var line = iso(attempt.answeredAt) + "  "
        switch (attempt.status, attempt.reason) {
        case (200?, _): line += "200"
        case (let status?, let reason?): line += "\(status) \(OutsideText.line(reason))"
        case (let status?, nil): line += "\(status)"
        case (nil, let reason): line += "\(OutsideText.line(reason ?? "no answer")) (no answer)"
        }
        if let id = attempt.apnsID { line += "  apns-id \(OutsideText.line(id))" }
        if attempt.status == 200 {
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
