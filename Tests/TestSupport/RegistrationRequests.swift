import LiveActivityDomain
import LiveActivityStore

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

/// The body of `POST /wakeup/unregister` and `POST /wakeup/ack`.
public func unregisterBody(_ token: String) -> String { "{\"pushToken\":\"\(token)\"}" }

/// Every stored registration as comparable text (its attempt history in hex), in token order,
/// then every ack counted (none until one is): to prove that nothing changed.
public func storedRows(_ databasePath: String) throws -> [String] {
    let connection = try SQLiteConnection(path: databasePath)
    let registrations = try connection.statement(
        """
        SELECT push_token, activity_type, environment, registered_at, expires_at, next_push_at, last_push_at,
               wakeup_count, consecutive_failures, last_error, requested_interval, hex(attempts)
        FROM registrations ORDER BY push_token
        """
    ).rows { row in (0..<12).map { row.text(Int32($0)) ?? "-" }.joined(separator: "|") }
    let acks = try connection.statement("SELECT outcome, count FROM ack_totals ORDER BY outcome")
        .rows { row in "acks \(row.text(0) ?? "-") \(row.int(1))" }
    return registrations + acks
}
