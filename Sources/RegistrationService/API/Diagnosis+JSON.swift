import LiveActivityDomain

/// `/wakeup/diagnostics`'s answer (SPEC 3): the registration's facts, its attempts newest first,
/// its widgets target and the hints. No token, address, key or apns-id: an attempt shows when it
/// was answered, the status, APNs's reason (escaped and cut, `JSONText.outside`) and how long
/// after it the app acknowledged it.
extension Diagnosis {
    var json: String {
        var parts = [
            "\"registered\":true", "\"activityType\":\(JSONText.string(activityType.rawValue))",
            "\"environment\":\(JSONText.string(environment.rawValue))",
        ]
        parts += Self.targetParts(wake)
        parts.insert("\"expiresIn\":\(expiresIn)", at: parts.count - 1)
        parts.append("\"widgets\":" + (widgets.map { "{" + Self.targetParts($0).joined(separator: ",") + "}" } ?? "null"))
        parts.append("\"hints\":" + DiagnosticHint.json(hints))
        return "{" + parts.joined(separator: ",") + "}"
    }

    /// The answer for a token with no registration in the location's app.
    static let unregisteredJSON = "{\"registered\":false,\"hints\":" + DiagnosticHint.json(DiagnosticHint.unregistered) + "}"

    /// `interval`, `cadence` (a wake target's), `nextPushIn` and `attempts`, the last last.
    static func targetParts(_ target: Target) -> [String] {
        var parts = ["\"interval\":\(target.interval)"]
        if let cadence = target.cadence { parts.append("\"cadence\":\(JSONText.string(cadence.rawValue))") }
        parts.append("\"nextPushIn\":" + (target.nextPushIn.map(String.init) ?? "null"))
        parts.append("\"attempts\":[" + target.attempts.map(json).joined(separator: ",") + "]")
        return parts
    }

    static func json(_ attempt: PushAttempt) -> String {
        let acked = attempt.ackedAt == nil ? nil : attempt.ackDelayMilliseconds.map { SweepSummary.seconds(max(0, $0)) }
        return "{\"at\":\(JSONText.string(UTCTime(milliseconds: attempt.answeredAt).iso8601)),"
            + "\"status\":\(attempt.status.map(String.init) ?? "null"),"
            + "\"reason\":\(attempt.reason.map { JSONText.outside($0, limit: 64) } ?? "null"),"
            + "\"ackedAfter\":\(acked ?? "null")}"
    }
}
