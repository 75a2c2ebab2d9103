import Foundation
import LiveActivityDomain
import TestSupport
import Testing

/// The stored row for `token`, read through a connection of the test's own.
func storedRegistration(_ token: String, in stack: LiveStack) throws -> Registration? {
    try stack.database.registration(PushToken(validating: token))
}

/// The decoded JSON object of a response body.
func jsonObject(_ result: HTTPResult) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(result.body))) as? [String: Any]
}

/// Every row of the table, as comparable text (to prove that nothing changed).
func snapshot(of stack: LiveStack) throws -> [String] { try storedRows(stack.database) }
