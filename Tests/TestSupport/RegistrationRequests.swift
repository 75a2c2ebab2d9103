import LiveActivityDomain

/// The body the iOS app sends to `POST /wakeup` (SPEC section 3).
public func registerBody(_ token: String, type: String = "charging", environment: String? = nil) -> String {
    var body = "{\"pushToken\":\"\(token)\",\"activityType\":\"\(type)\""
    if let environment { body += ",\"environment\":\"\(environment)\"" }
    return body + "}"
}

/// The body of `POST /wakeup` asking for `interval` seconds.
public func registerBody(_ token: String, type: String = "charging", interval: Int) -> String {
    "{\"pushToken\":\"\(token)\",\"activityType\":\"\(type)\",\"interval\":\(interval)}"
}

/// The body of `POST /wakeup` with the widget extension's token (and the seconds asked between
/// its reloads, when given), as an iOS 26 app with a push widget sends it: its field names
/// spelt out, not read from `PushKind.widgets` (the oracle is not the code under test).
public func registerBody(_ token: String, widget: String, widgetInterval: Int? = nil, interval: Int? = nil) -> String {
    var body = "{\"pushToken\":\"\(token)\",\"activityType\":\"charging\",\"widgetPushToken\":\"\(widget)\""
    if let widgetInterval { body += ",\"widgetInterval\":\(widgetInterval)" }
    if let interval { body += ",\"interval\":\(interval)" }
    return body + "}"
}

/// The body of `POST /wakeup` with the token of a target of `kind` (and the seconds asked between
/// its pushes, when given), in the fields its kind names (a kind with its own token: not a wake).
public func registerBody(
    _ token: String, _ kind: PushKind, _ other: String, otherInterval: Int? = nil, interval: Int? = nil
) -> String {
    guard let tokenField = kind.tokenField, let intervalField = kind.intervalField else {
        preconditionFailure("a \(kind) target's token and interval are the registration's own")
    }
    var body = "{\"pushToken\":\"\(token)\",\"activityType\":\"charging\",\"\(tokenField)\":\"\(other)\""
    if let otherInterval { body += ",\"\(intervalField)\":\(otherInterval)" }
    if let interval { body += ",\"interval\":\(interval)" }
    return body + "}"
}

/// The body of `POST /wakeup/unregister` and `POST /wakeup/ack`.
public func unregisterBody(_ token: String) -> String { "{\"pushToken\":\"\(token)\"}" }

/// Every stored registration as comparable text (its attempt history as the engine stores it),
/// in token order, then every ack counted (none until one is): to prove that nothing changed.
public func storedRows(_ database: TestDatabase) throws -> [String] {
    let registrations = try database.rows(
        """
        SELECT registration_token, push_kind, push_token, activity_type, environment, registered_at, expires_at,
               next_push_at, last_push_at, push_count, consecutive_failures, last_error, requested_interval,
               \(database.attemptsAsText), waiting_ack_at, guard_holds, activities, background_refresh, low_power,
               unchanged_acks, waiting_changed
        FROM push_targets ORDER BY registration_token, push_kind
        """
    ).map { row in row.map { $0 ?? "-" }.joined(separator: "|") }
    let acks = try database.rows("SELECT outcome, count FROM ack_totals ORDER BY outcome").map { row in
        "acks \(row[0] ?? "-") \(row[1] ?? "-")"
    }
    return registrations + acks
}
