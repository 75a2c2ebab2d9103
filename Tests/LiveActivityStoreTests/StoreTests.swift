import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore
@testable import SQLiteClient
@testable import SQLiteStore

/// The responder's writes through the contract, on every engine (the test's argument; SPEC 3, 4).
@Suite struct StoreTests {
    let hour: Int64 = 3_600_000

    @Test(arguments: TestEngine.every)
    func aNewDatabaseIsMigratedToTheCurrentVersion(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "store")
        #expect(try database.count() == 0)
        if database.kind == .sqlite {
            #expect(try database.scalar("PRAGMA user_version") == Schema.currentVersion)
            #expect(try database.rows("PRAGMA journal_mode") == [["wal"]])
        }
    }

    @Test(arguments: TestEngine.every)
    func registeringStoresTheRowDueAtOnce(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "store")
        let token = try PushToken(validating: sampleToken(1).uppercased())
        let result = try database.register(
            token, type: .charging, environment: .sandbox, now: 1000, expiresAt: 1000 + 8 * hour, cap: 10)
        #expect(result == .created)
        let row = try #require(try database.registration(token))
        #expect(row.token.hex == sampleToken(1))
        #expect(row.activityType == .charging)
        #expect(row.environment == .sandbox)
        #expect(row.registeredAt == 1000)
        #expect(row.nextPushAt == 1000)
        #expect(row.expiresAt == 1000 + 8 * hour)
        #expect(row.lastPushAt == nil)
        #expect(row.wakeupCount == 0)
        #expect(try database.count() == 1)
    }

    @Test(arguments: TestEngine.real)
    func registeringAgainRefreshesTypeEnvironmentExpiryAndDueTime(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "store")
        let token = try PushToken(validating: sampleToken(2))
        try database.register(token, type: .charging, environment: .production, now: 1000, expiresAt: 5000, cap: 10)
        try database.execute(
            "UPDATE push_targets SET next_push_at = 99999, push_count = 3, consecutive_failures = 2, last_error = 'InternalServerError'"
        )
        let result = try database.register(token, type: .debug, environment: .sandbox, now: 2000, expiresAt: 9000, cap: 10)
        #expect(result == .refreshed)
        let row = try #require(try database.registration(token))
        #expect(row.activityType == .debug)
        #expect(row.environment == .sandbox)
        #expect(row.registeredAt == 2000)
        #expect(row.expiresAt == 9000)
        #expect(row.nextPushAt == 2000)
        #expect(row.wakeupCount == 3, "lifetime wakeups survive a refresh")
        #expect(row.consecutiveFailures == 0)
        #expect(row.lastError == nil)
        #expect(try database.count() == 1)
    }

    /// A batch's reasons go to PostgreSQL as one array literal: what it must escape (quotes,
    /// backslashes) or could mistake (commas, braces, the word NULL), and characters beyond
    /// ASCII, are stored as given, each on its own target.
    @Test(arguments: TestEngine.real)
    func failureReasonsAreStoredAsGivenWhateverTheirCharacters(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "store")
        let reasons = [#"Bad"Quote"#, #"back\slash\"#, "a,b{c}", "NULL", "é ✓ 🚗", ""]
        let tokens = try reasons.indices.map { try PushToken(validating: sampleToken(40 + $0)) }
        for token in tokens { try database.register(token, now: 1000) }
        try database.apply(
            zip(tokens, reasons).map { token, reason in
                .failed(.wake(token), selectedRegisteredAt: 1000, reason: reason, nextPushAt: 2000)
            })
        for (token, reason) in zip(tokens, reasons) {
            let row = try #require(try database.registration(token))
            #expect(row.lastError == reason)
            #expect(row.consecutiveFailures == 1)
        }
    }

    @Test(arguments: TestEngine.every)
    func unregisterRemovesAndIsIdempotent(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "store")
        let token = try PushToken(validating: sampleToken(3))
        try database.register(token, type: .charging, environment: .production, now: 1, expiresAt: 2, cap: 10)
        #expect(try database.unregister(token) == true)
        #expect(try database.unregister(token) == false)
        #expect(try database.registration(token) == nil)
        #expect(try database.count() == 0)
    }

    @Test(arguments: TestEngine.every)
    func theCapRefusesNewTokensButStillRefreshesKnownOnes(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "store")
        for seed in 0..<3 {
            try database.register(
                try PushToken(validating: sampleToken(seed)), type: .charging, environment: .production, now: 1, expiresAt: 2,
                cap: 3)
        }
        #expect(throws: StoreError.capacityReached(limit: 3)) {
            try database.register(
                try PushToken(validating: sampleToken(99)), type: .charging, environment: .production, now: 1, expiresAt: 2,
                cap: 3)
        }
        #expect(
            try database.register(
                try PushToken(validating: sampleToken(1)), type: .debug, environment: .production, now: 5, expiresAt: 6, cap: 3)
                == .refreshed)
        #expect(try database.count() == 3, "nothing was evicted")
        #expect(try database.registration(try PushToken(validating: sampleToken(99))) == nil)
        try database.unregister(try PushToken(validating: sampleToken(0)))
        #expect(
            try database.register(
                try PushToken(validating: sampleToken(99)), type: .charging, environment: .production, now: 1, expiresAt: 2,
                cap: 3) == .created)
    }

    @Test(arguments: TestEngine.every)
    func dataSurvivesCloseAndReopen(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "store")
        try database.register(
            try PushToken(validating: sampleToken(7)), type: .debug, environment: .sandbox, now: 10, expiresAt: 20, cap: 10)
        let reopened = try database.engine.openRegistrations()
        defer { reopened.close() }
        #expect(try reopened.registrationCount() == 1)
        #expect(
            try reopened.registration(RegistrationKey(token: try PushToken(validating: sampleToken(7))), attempts: false)?
                .activityType == .debug)
    }

    /// SQLite's own migrations: on SQLite alone.
    @Test func aVersionOneDatabaseIsMigratedWithoutLosingRegistrations() throws {
        let database = try TestDatabase(.sqlite, label: "store")
        let path = database.setting
        do {
            let old = try SQLiteConnection(path: path)
            try Schema.migrate(old, upTo: 1)
            #expect(try old.userVersion == 1)
            for seed in 0..<5 {
                try old.statement(
                    "INSERT INTO registrations (push_token, activity_type, environment, registered_at, expires_at, next_push_at) VALUES (?, 'charging', 'production', 1, 2, 1)"
                ).run([.text(sampleToken(seed))])
            }
        }
        #expect(try database.count() == 5, "the counter starts from the rows already there")
        #expect(try database.scalar("PRAGMA user_version") == Schema.currentVersion)
        try database.unregister(try PushToken(validating: sampleToken(0)))
        #expect(try database.count() == 4)
    }

    @Test(arguments: TestEngine.real)
    func aDatabaseFromANewerBuildIsRefused(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "store")
        try database.pretendNewerSchema()
        do {
            _ = try database.engine.openRegistrations()
            Issue.record("a database from a newer build was opened")
        } catch {
            #expect(StoreFault.of(error)?.kind == .tooNew, "\(error)")
        }
    }

    @Test(arguments: TestEngine.real)
    func aTransactionThatThrowsIsRolledBack(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "store")
        struct Boom: Error {}
        let connection = try database.engine.openRegistrations()
        defer { connection.close() }
        #expect(throws: Boom.self) {
            try connection.transaction {
                try connection.write(
                    NewRegistration(
                        token: PushToken(trusted: sampleToken(1)), activityType: .charging, environment: .production,
                        registeredAt: 1, expiresAt: 2, widget: .init(token: PushToken(trusted: sampleToken(2)))
                    ).targets.map(TargetWrite.insert))
                throw Boom()
            }
        }
        #expect(try database.count() == 0)
        #expect(try database.scalar("SELECT count(*) FROM push_targets") == 0)
    }
}
