import LiveActivityDomain
import LiveActivityStore

/// The body the iOS app sends to `POST /wakeup` (SPEC section 3).
public func registerBody(_ token: String, type: String = "charging", environment: String? = nil) -> String {
    var body = "{\"pushToken\":\"\(token)\",\"activityType\":\"\(type)\""
    if let environment { body += ",\"environment\":\"\(environment)\"" }
    return body + "}"
}

/// The body of `POST /wakeup/unregister`.
public func unregisterBody(_ token: String) -> String { "{\"pushToken\":\"\(token)\"}" }

/// Every stored registration as comparable text, in token order (to prove that nothing changed).
public func storedRows(_ databasePath: String) throws -> [String] {
    let connection = try SQLiteConnection(path: databasePath)
    return try connection.statement(
        """
        SELECT push_token, activity_type, environment, registered_at, expires_at, next_push_at, last_push_at,
               wakeup_count, consecutive_failures, last_error
        FROM registrations ORDER BY push_token
        """
    ).rows { row in (0..<10).map { row.text(Int32($0)) ?? "-" }.joined(separator: "|") }
}
