import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore
@testable import SQLiteClient
@testable import SQLiteStore

/// Whether an environment ever had a push answered 200 in this database (SPEC 5's guard judges
/// "a fresh deployment" by it): set by the first 200, kept when the registration goes, and
/// derived from the proven registrations of a database made before it was kept.
@Suite struct DeliveredEnvironmentsTests {
    let folder = TemporaryDirectory("delivered")
    let now: Int64 = 1_800_000_000_000

    /// Stores a registration as a database of an older version (`registrations`) keeps it.
    func registerOld(_ seed: Int, _ environment: APNsEnvironment, in connection: SQLiteConnection) throws {
        try connection.execute(
            """
            INSERT INTO registrations (push_token, activity_type, environment, registered_at, expires_at, next_push_at)
            VALUES ('\(sampleToken(seed))', 'charging', '\(environment.rawValue)', \(now), \(now + 1), \(now))
            """)
    }

    /// Stores a registration's wake target as this build keeps it.
    func insert(_ seed: Int, _ environment: APNsEnvironment) -> String {
        """
        INSERT INTO push_targets (registration_token, push_kind, push_token, activity_type, environment, registered_at,
            expires_at, next_push_at)
        VALUES ('\(sampleToken(seed))', 'wake', '\(sampleToken(seed))', 'charging', '\(environment.rawValue)', \(now),
            \(now + 1), \(now))
        """
    }

    func token(_ seed: Int) -> PushToken { PushToken(trusted: sampleToken(seed)) }

    /// The final answer the sweep hands over with an outcome (`status` nil: a transport failure).
    func answer(_ seed: Int, _ environment: APNsEnvironment, status: Int?, at: Int64) -> AnsweredPush {
        let attempt = PushAttempt(
            token: token(seed), sentAt: at - 1, answeredAt: at, status: status,
            reason: status == 200 ? nil : "ServiceUnavailable", apnsID: nil)
        return AnsweredPush(
            key: .wake(token(seed)), attempt: attempt, activityType: .charging, environment: environment, previousDeliveryAt: nil)
    }

    @Test(arguments: TestEngine.real)
    func theFirst200OfAnEnvironmentIsKeptAfterItsRegistrationIsGone(engine: TestEngine) throws {
        let store = try TestDatabase(engine, label: "delivered")
        try store.reading { _ in }  // migrated
        try store.execute(insert(1, .sandbox))
        try store.execute(insert(2, .production))
        func everDelivered() throws -> Set<PushScope> { try store.reading { try $0.scopesEverDelivered() } }
        #expect(try everDelivered().isEmpty)
        try store.apply(
            [.failed(.wake(token(2)), selectedRegisteredAt: now, reason: "ServiceUnavailable", nextPushAt: now)],
            answered: [answer(2, .production, status: 503, at: now)])
        #expect(try everDelivered().isEmpty, "only a 200 counts")
        try store.apply(
            [.delivered(.wake(token(1)), selectedRegisteredAt: now, at: now + 5, nextPushAt: now + 10)],
            answered: [answer(1, .sandbox, status: 200, at: now + 5)])
        try store.apply(
            [.delivered(.wake(token(1)), selectedRegisteredAt: now, at: now + 15, nextPushAt: now + 20)],
            answered: [answer(1, .sandbox, status: 200, at: now + 15)])
        #expect(try everDelivered() == [.sandbox])
        let first = try store.rows("SELECT first_delivered_at FROM delivered_scopes").map { $0[0] }
        #expect(first == [String(now + 5)], "the first 200 is kept, later ones change nothing")
        try store.apply([.delete(.wake(token(1)), registeredAtOrBefore: now)])
        #expect(try everDelivered() == [.sandbox], "the history outlives the registration")
    }

    @Test func theMigrationDerivesItFromTheProvenRegistrationsOfAnOlderDatabase() throws {
        let connection = try SQLiteConnection(path: folder.file("old.sqlite"))
        try Schema.migrate(connection, upTo: 6)
        try registerOld(1, .sandbox, in: connection)
        try registerOld(2, .production, in: connection)
        try connection.execute("UPDATE registrations SET last_push_at = \(now), wakeup_count = 1 WHERE environment = 'sandbox'")
        try Schema.migrate(connection)
        #expect(try SQLiteEngine(path: connection.path).openSweep(migrating: false).scopesEverDelivered() == [PushScope.sandbox])
    }

    /// Version 7 kept it by a trigger on every outcome's UPDATE, which made SQLite journal each
    /// statement (Schema+Version9): a database migrated past it has no trigger left, and its
    /// sweep still records the first 200 of an environment.
    @Test func aVersion8DatabaseLosesTheTriggerAndKeepsRecording() throws {
        let connection = try SQLiteConnection(path: folder.file("v8.sqlite"))
        try Schema.migrate(connection, upTo: 8)
        let triggers = "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name = 'registrations_first_delivery'"
        #expect(try connection.statement(triggers).rows([]) { $0.text(0) } == ["registrations_first_delivery"])
        try Schema.migrate(connection)
        #expect(try connection.statement(triggers).rows([]) { $0.text(0) }.isEmpty)
        try connection.execute(insert(1, .production))
        let store = TestDatabase(sqliteFile: connection.path)
        try store.apply(
            [.delivered(.wake(token(1)), selectedRegisteredAt: now, at: now + 5, nextPushAt: now + 10)],
            answered: [answer(1, .production, status: 200, at: now + 5)])
        #expect(try store.reading { try $0.scopesEverDelivered() } == [PushScope.production])
    }
}
