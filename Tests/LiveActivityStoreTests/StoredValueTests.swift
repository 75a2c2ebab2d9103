import Foundation
import LiveActivityDomain
import LiveActivityStore
import TestSupport
import Testing

/// A stored environment or activity type this build does not know is an error naming it, never a
/// guess: read as `.production`, a sandbox token would go to the wrong host and be deleted on the
/// BadDeviceToken answer.
@Suite struct StoredValueTests {
    let folder = TemporaryDirectory("stored")

    func store(environment: String, type: String = "charging") throws -> (RegistrationStore, PushToken) {
        let store = try RegistrationStore(path: folder.file("db.sqlite"))
        let token = try PushToken(validating: sampleToken(1))
        try store.register(token, type: .charging, environment: .sandbox, now: 1000, expiresAt: 9000, cap: 10)
        try store.connection.execute("UPDATE registrations SET environment = '\(environment)', activity_type = '\(type)'")
        return (store, token)
    }

    @Test func anUnknownEnvironmentIsAnErrorWhereverARowIsRead() throws {
        let (store, token) = try store(environment: "mars")
        let refusal = StoredValueError(column: "registrations.environment", value: "mars")
        #expect(throws: refusal) { try store.registration(token) }
        #expect(throws: refusal) {
            try SweepStore(connection: store.connection).duePage(atOrBefore: 5000, after: nil, limit: 10)
        }
        #expect(refusal.description == "the database holds registrations.environment 'mars', which this build does not know")
    }

    @Test func anUnknownActivityTypeIsAnError() throws {
        let (store, token) = try store(environment: "sandbox", type: "party")
        let refusal = StoredValueError(column: "registrations.activity_type", value: "party")
        #expect(throws: refusal) { try store.registration(token) }
        #expect(throws: refusal) {
            try SweepStore(connection: store.connection).duePage(atOrBefore: 5000, after: nil, limit: 10)
        }
    }

    @Test func knownValuesReadAsBefore() throws {
        let (store, token) = try store(environment: "sandbox", type: "debug")
        let row = try #require(try store.registration(token))
        #expect(row.environment == .sandbox && row.activityType == .debug)
        let due = try SweepStore(connection: store.connection).duePage(atOrBefore: 5000, after: nil, limit: 10)
        #expect(due.map(\.environment) == [.sandbox])
    }
}
