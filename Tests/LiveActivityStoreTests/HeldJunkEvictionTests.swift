import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore

/// Issue 48 point 1 (SPEC 5, guard): junk the guard holds cannot keep a scope that never
/// delivered full. At the unproven cap a new token evicts the oldest registration of its app and
/// environment that the guard held and that was never answered 200; a row not yet pushed, a
/// proven one, and another scope's are never evicted, and only when there is none is the new
/// token refused. On every engine.
@Suite("Held junk eviction") struct HeldJunkEvictionTests {
    let now: Int64 = 1_800_000_000_000

    func token(_ seed: Int) -> PushToken { PushToken(trusted: sampleToken(seed)) }

    @discardableResult
    func register(
        _ seed: Int, environment: APNsEnvironment = .sandbox, at offset: Int64 = 0, cap: Int = 2, app: AppName = .defaultApp,
        in database: TestDatabase
    ) throws -> StoreWrite.RegisterResult {
        try database.register(token(seed), environment: environment, now: now + offset, unprovenCap: cap, app: app)
    }

    /// The guard holds `seed`'s wake target as a fresh deployment's junk, as the sweep writes it.
    func hold(_ seed: Int, at offset: Int64, app: AppName = .defaultApp, in database: TestDatabase) throws {
        let key = TargetKey(RegistrationKey(app: app, token: token(seed)), kind: .wake)
        try database.apply([
            .heldByGuard(key, selectedRegisteredAt: now + offset, reason: "BadDeviceToken", nextPushAt: now + 3_600_000)
        ])
    }

    func stored(_ seed: Int, app: AppName = .defaultApp, in database: TestDatabase) throws -> Bool {
        try database.registration(token(seed), app: app) != nil
    }

    func unproven(_ app: AppName = .defaultApp, _ environment: APNsEnvironment = .sandbox, in database: TestDatabase) throws
        -> Int
    {
        let statements = try database.engine.openRegistrations()
        defer { statements.close() }
        return try statements.registrationCounts().unproven(of: app, in: environment)
    }

    @Test(arguments: TestEngine.every)
    func aNewTokenAtTheCapEvictsTheOldestHeldJunkOfItsScope(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "evict")
        try register(1, at: 0, in: database)
        try register(2, at: 1000, in: database)
        try hold(2, at: 1000, in: database)
        try hold(1, at: 0, in: database)
        #expect(try register(3, at: 2000, in: database) == .created, "the oldest held junk made room")
        #expect(try !stored(1, in: database) && stored(2, in: database) && stored(3, in: database))
        #expect(try register(4, at: 3000, in: database) == .created, "then the next oldest")
        #expect(try !stored(2, in: database) && stored(4, in: database))
        #expect(try unproven(in: database) == 2, "the counters follow the evictions")
        #expect(try database.count() == 2)
        // Neither 3 nor 4 was ever pushed: not junk yet, so the next new token is refused.
        #expect(throws: StoreError.unprovenCapacityReached(limit: 2, environment: .sandbox)) {
            try register(5, at: 4000, in: database)
        }
        #expect(try stored(3, in: database) && stored(4, in: database) && !stored(5, in: database))
    }

    @Test(arguments: TestEngine.every)
    func aProvenRowAndAnotherScopesJunkAreNeverEvicted(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "spare")
        // Production's held junk: the sandbox's new token must not touch it.
        try register(1, environment: .production, at: 0, in: database)
        try hold(1, at: 0, in: database)
        // Another app's held junk in the sandbox: the default app's new token must not touch it.
        let other = try #require(AppName("other"))
        try register(2, at: 0, app: other, in: database)
        try hold(2, at: 0, app: other, in: database)
        // A sandbox row held once and then answered 200: proven, never evicted.
        try register(3, at: 0, in: database)
        try hold(3, at: 0, in: database)
        let answered = AnsweredPush(
            key: .wake(token(3)),
            attempt: PushAttempt(
                token: token(3), sentAt: now + 59_950, answeredAt: now + 60_000, status: 200, reason: nil, apnsID: "ID-3"),
            activityType: .charging, environment: .sandbox, previousDeliveryAt: nil)
        try database.apply(
            [.delivered(.wake(token(3)), selectedRegisteredAt: now, at: now + 60_000, nextPushAt: now + 360_000)],
            answered: [answered])
        // The cap is 1: the sandbox has no unproven registration of the default app yet.
        #expect(try register(4, at: 1000, cap: 1, in: database) == .created)
        #expect(throws: StoreError.unprovenCapacityReached(limit: 1, environment: .sandbox)) {
            try register(5, at: 2000, cap: 1, in: database)
        }
        #expect(try stored(1, in: database) && stored(2, app: other, in: database) && stored(3, in: database))
        #expect(try stored(4, in: database) && !stored(5, in: database))
    }

    /// A refresh of held junk is no new token: it passes the cap as before and evicts nothing.
    @Test(arguments: TestEngine.every)
    func aRefreshEvictsNothing(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "refresh")
        try register(1, at: 0, cap: 1, in: database)
        try hold(1, at: 0, in: database)
        #expect(try register(1, at: 5000, cap: 1, in: database) == .refreshed)
        #expect(try stored(1, in: database) && unproven(in: database) == 1)
    }

    /// A batch of several new tokens evicts one held row each, oldest first, and never a row that
    /// the same batch refreshes.
    @Test(arguments: TestEngine.every)
    func oneBatchEvictsOneHeldRowPerNewTokenAndSparesItsOwn(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "batch")
        for seed in 1...3 {
            try register(seed, at: Int64(seed) * 1000, cap: 3, in: database)
            try hold(seed, at: Int64(seed) * 1000, in: database)
        }
        let caps = RegistrationCaps(total: 1_000_000, unproven: 3)
        func registration(_ seed: Int) -> NewRegistration {
            NewRegistration(
                token: token(seed), activityType: .charging, environment: .sandbox, registeredAt: now + 10_000,
                expiresAt: now + 8 * 3_600_000, requestedInterval: nil)
        }
        // Refresh 1 (the oldest) and register 10 and 11 in the same batch.
        let statements = try database.engine.openRegistrations()
        defer { statements.close() }
        let answers = try statements.transaction {
            try StoreWrite.apply(
                [
                    .register(registration(1), caps: caps), .register(registration(10), caps: caps),
                    .register(registration(11), caps: caps),
                ], to: statements)
        }
        #expect(answers.compactMap { try? $0.get() } == [.registered(.refreshed), .registered(.created), .registered(.created)])
        #expect(try stored(1, in: database) && !stored(2, in: database) && !stored(3, in: database))
        #expect(try stored(10, in: database) && stored(11, in: database) && unproven(in: database) == 3)
    }
}
