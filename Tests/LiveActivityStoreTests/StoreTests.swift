import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore

@Suite struct StoreTests {
    let folder = TemporaryDirectory("store")
    var path: String { folder.file("db.sqlite") }
    let hour: Int64 = 3_600_000

    @Test func aNewDatabaseIsMigratedToTheCurrentVersionInWALMode() throws {
        let store = try RegistrationStore(path: path)
        #expect(try store.connection.userVersion == Schema.currentVersion)
        #expect(try store.connection.statement("PRAGMA journal_mode").firstRow { $0.text(0) } == "wal")
        #expect(try store.count() == 0)
    }

    @Test func registeringStoresTheRowDueAtOnce() throws {
        let store = try RegistrationStore(path: path)
        let token = try PushToken(validating: sampleToken(1).uppercased())
        let result = try store.register(
            token, type: .charging, environment: .sandbox, now: 1000, expiresAt: 1000 + 8 * hour, cap: 10)
        #expect(result == .created)
        let row = try #require(try store.registration(token))
        #expect(row.token.hex == sampleToken(1))
        #expect(row.activityType == .charging)
        #expect(row.environment == .sandbox)
        #expect(row.registeredAt == 1000)
        #expect(row.nextPushAt == 1000)
        #expect(row.expiresAt == 1000 + 8 * hour)
        #expect(row.lastPushAt == nil)
        #expect(row.wakeupCount == 0)
        #expect(try store.count() == 1)
    }

    @Test func registeringAgainRefreshesTypeEnvironmentExpiryAndDueTime() throws {
        let store = try RegistrationStore(path: path)
        let token = try PushToken(validating: sampleToken(2))
        try store.register(token, type: .charging, environment: .production, now: 1000, expiresAt: 5000, cap: 10)
        try store.connection.execute(
            "UPDATE registrations SET next_push_at = 99999, wakeup_count = 3, consecutive_failures = 2, last_error = 'InternalServerError'"
        )
        let result = try store.register(token, type: .debug, environment: .sandbox, now: 2000, expiresAt: 9000, cap: 10)
        #expect(result == .refreshed)
        let row = try #require(try store.registration(token))
        #expect(row.activityType == .debug)
        #expect(row.environment == .sandbox)
        #expect(row.registeredAt == 2000)
        #expect(row.expiresAt == 9000)
        #expect(row.nextPushAt == 2000)
        #expect(row.wakeupCount == 3, "lifetime wakeups survive a refresh")
        #expect(row.consecutiveFailures == 0)
        #expect(row.lastError == nil)
        #expect(try store.count() == 1)
    }

    @Test func unregisterRemovesAndIsIdempotent() throws {
        let store = try RegistrationStore(path: path)
        let token = try PushToken(validating: sampleToken(3))
        try store.register(token, type: .charging, environment: .production, now: 1, expiresAt: 2, cap: 10)
        #expect(try store.unregister(token) == true)
        #expect(try store.unregister(token) == false)
        #expect(try store.registration(token) == nil)
        #expect(try store.count() == 0)
    }

    @Test func theCapRefusesNewTokensButStillRefreshesKnownOnes() throws {
        let store = try RegistrationStore(path: path)
        for seed in 0..<3 {
            try store.register(
                try PushToken(validating: sampleToken(seed)), type: .charging, environment: .production, now: 1, expiresAt: 2,
                cap: 3)
        }
        #expect(throws: StoreError.capacityReached(limit: 3)) {
            try store.register(
                try PushToken(validating: sampleToken(99)), type: .charging, environment: .production, now: 1, expiresAt: 2,
                cap: 3)
        }
        #expect(
            try store.register(
                try PushToken(validating: sampleToken(1)), type: .debug, environment: .production, now: 5, expiresAt: 6, cap: 3)
                == .refreshed)
        #expect(try store.count() == 3, "nothing was evicted")
        #expect(try store.registration(try PushToken(validating: sampleToken(99))) == nil)
        try store.unregister(try PushToken(validating: sampleToken(0)))
        #expect(
            try store.register(
                try PushToken(validating: sampleToken(99)), type: .charging, environment: .production, now: 1, expiresAt: 2,
                cap: 3) == .created)
    }

    @Test func dataSurvivesCloseAndReopen() throws {
        do {
            let store = try RegistrationStore(path: path)
            try store.register(
                try PushToken(validating: sampleToken(7)), type: .debug, environment: .sandbox, now: 10, expiresAt: 20, cap: 10)
        }
        let reopened = try RegistrationStore(path: path)
        #expect(try reopened.count() == 1)
        #expect(try reopened.registration(try PushToken(validating: sampleToken(7)))?.activityType == .debug)
        #expect(try reopened.connection.userVersion == Schema.currentVersion)
    }

    @Test func aVersionOneDatabaseIsMigratedWithoutLosingRegistrations() throws {
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
        let store = try RegistrationStore(path: path)
        #expect(try store.connection.userVersion == Schema.currentVersion)
        #expect(try store.count() == 5, "the counter starts from the rows already there")
        try store.unregister(try PushToken(validating: sampleToken(0)))
        #expect(try store.count() == 4)
    }

    @Test func aDatabaseFromANewerBuildIsRefused() throws {
        do {
            let newer = try SQLiteConnection(path: path)
            try newer.execute("PRAGMA user_version = \(Schema.currentVersion + 1)")
        }
        #expect(throws: SchemaTooNewError(found: Schema.currentVersion + 1, supported: Schema.currentVersion)) {
            try RegistrationStore(path: path)
        }
    }

    @Test func aTransactionThatThrowsIsRolledBack() throws {
        let store = try RegistrationStore(path: path)
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try store.connection.transaction {
                try store.connection.statement(
                    "INSERT INTO registrations (push_token, activity_type, environment, registered_at, expires_at, next_push_at) VALUES ('ab', 'charging', 'production', 1, 2, 1)"
                ).run()
                throw Boom()
            }
        }
        #expect(try store.count() == 0)
        #expect(try store.connection.statement("SELECT count(*) FROM registrations").scalarInt() == 0)
    }
}
