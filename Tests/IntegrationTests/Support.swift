import Foundation
import LiveActivityCore
import TestSupport

/// The body the iOS app sends to `POST /wakeup` (SPEC section 3).
func registerBody(_ token: String, type: String = "charging", environment: String? = nil) -> String {
    var body = "{\"pushToken\":\"\(token)\",\"activityType\":\"\(type)\""
    if let environment { body += ",\"environment\":\"\(environment)\"" }
    return body + "}"
}

/// The body of `POST /wakeup/unregister`.
func unregisterBody(_ token: String) -> String { "{\"pushToken\":\"\(token)\"}" }

/// The stored row for `token`, read through a connection of the test's own.
func storedRegistration(_ token: String, in stack: LiveStack) throws -> Registration? {
    try stack.store().registration(PushToken(validating: token))
}

/// The decoded JSON object of a response body.
func jsonObject(_ result: HTTPResult) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(result.body))) as? [String: Any]
}

/// Every row of the table, as comparable text (to prove that nothing changed).
func snapshot(of stack: LiveStack) throws -> [String] {
    let store = try stack.store()
    return try store.connection.statement(
        "SELECT push_token, activity_type, environment, registered_at, expires_at, next_push_at FROM registrations ORDER BY push_token"
    ).rows { row in (0..<6).map { row.text(Int32($0)) ?? "-" }.joined(separator: "|") }
}
