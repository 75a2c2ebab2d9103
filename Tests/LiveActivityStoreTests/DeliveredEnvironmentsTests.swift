import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore

/// Whether an environment ever had a push answered 200 in this database (SPEC 5's guard judges
/// "a fresh deployment" by it): set by the first 200, kept when the registration goes, and
/// derived from the proven registrations of a database made before it was kept.
@Suite struct DeliveredEnvironmentsTests {
    let folder = TemporaryDirectory("delivered")
    let now: Int64 = 1_800_000_000_000

    func register(_ seed: Int, _ environment: APNsEnvironment, in connection: SQLiteConnection) throws {
        try connection.execute(
            """
            INSERT INTO registrations (push_token, activity_type, environment, registered_at, expires_at, next_push_at)
            VALUES ('\(sampleToken(seed))', 'charging', '\(environment.rawValue)', \(now), \(now + 1), \(now))
            """)
    }

    func token(_ seed: Int) -> PushToken { PushToken(trusted: sampleToken(seed)) }

    @Test func theFirst200OfAnEnvironmentIsKeptAfterItsRegistrationIsGone() throws {
        let connection = try SQLiteConnection(path: folder.file("db.sqlite"))
        try Schema.migrate(connection)
        let store = SweepStore(connection: connection)
        try register(1, .sandbox, in: connection)
        try register(2, .production, in: connection)
        #expect(try store.environmentsEverDelivered().isEmpty)
        try store.apply([.failed(token(2), selectedRegisteredAt: now, reason: "ServiceUnavailable", nextPushAt: now)])
        #expect(try store.environmentsEverDelivered().isEmpty, "only a 200 counts")
        try store.apply([.delivered(token(1), selectedRegisteredAt: now, at: now + 5, nextPushAt: now + 10)])
        try store.apply([.delivered(token(1), selectedRegisteredAt: now, at: now + 15, nextPushAt: now + 20)])
        #expect(try store.environmentsEverDelivered() == [.sandbox])
        try store.apply([.delete(token(1), registeredAtOrBefore: now)])
        #expect(try store.environmentsEverDelivered() == [.sandbox], "the history outlives the registration")
    }

    @Test func theMigrationDerivesItFromTheProvenRegistrationsOfAnOlderDatabase() throws {
        let connection = try SQLiteConnection(path: folder.file("old.sqlite"))
        try Schema.migrate(connection, upTo: Schema.currentVersion - 1)
        try register(1, .sandbox, in: connection)
        try register(2, .production, in: connection)
        try connection.execute("UPDATE registrations SET last_push_at = \(now), wakeup_count = 1 WHERE environment = 'sandbox'")
        try Schema.migrate(connection)
        #expect(try SweepStore(connection: connection).environmentsEverDelivered() == [.sandbox])
    }
}
