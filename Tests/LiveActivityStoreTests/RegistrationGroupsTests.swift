import LiveActivityStore
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import SQLiteClient
@testable import SQLiteStore

/// The per-group counters `stats` and the caps read (schema steps 2 → 3, 9 → 10 and 14 → 15) agree
/// with the table itself after every kind of write the responder and the sweep make: how many
/// rows, how many of them were never answered 200 (`LIVEACTIVITY_MAX_UNPROVEN`, without a scan)
/// and their wake-ups (the status page's, without a sum over the targets).
/// Each test takes its engine as its argument; the migration is SQLite's own.
@Suite struct RegistrationGroupsTests {
    /// `type/environment:count:unproven:wakeups` from the counters and from a scan, sorted (SQL).
    func both(in database: TestDatabase) throws -> (counters: [String], scan: [String]) {
        func rows(_ sql: String) throws -> [String] {
            try database.rows(sql).map { row in
                "\(row[0] ?? "")/\(row[1] ?? ""):\(row[2] ?? ""):\(row[3] ?? ""):\(row[4] ?? "")"
            }
        }
        return (
            try rows(
                "SELECT activity_type, environment, n, unproven, wakeups FROM target_groups WHERE n > 0 ORDER BY 1, 2"),
            try rows(
                """
                SELECT activity_type, environment, count(*), sum(CASE WHEN last_push_at IS NULL THEN 1 ELSE 0 END),
                    sum(push_count)
                FROM push_targets GROUP BY 1, 2 ORDER BY 1, 2
                """)
        )
    }

    func token(_ seed: Int) -> PushToken { PushToken(trusted: sampleToken(seed)) }

    @Test(arguments: TestEngine.real)
    func countersFollowInsertsRefreshesPushesAndDeletes(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "groups")
        for seed in 1...5 {
            try database.register(token(seed), type: .charging, environment: .production, now: 10, expiresAt: 20, cap: 100)
        }
        // 5 is proven by a 200 the sweep writes: it is no longer unproven.
        try database.apply(
            [.delivered(.wake(token(5)), selectedRegisteredAt: 10, at: 15, nextPushAt: 100)],
            answered: [
                AnsweredPush(
                    key: .wake(token(5)),
                    attempt: PushAttempt(token: token(5), sentAt: 14, answeredAt: 15, status: 200, reason: nil, apnsID: nil),
                    activityType: .charging, environment: .production, previousDeliveryAt: nil)
            ])
        #expect(
            throws: StoreError.unprovenCapacityReached(limit: 4, environment: .production),
            "four unproven: a new token is refused"
        ) {
            try database.register(token(9), now: 16, unprovenCap: 4)
        }
        #expect(try database.register(token(1), now: 16, unprovenCap: 4) == .refreshed, "a stored one refreshes")
        // Three wake-ups each, planted in the targets and their counters alike.
        try database.execute("UPDATE push_targets SET push_count = push_count + 3")
        try database.execute("UPDATE target_groups SET wakeups = wakeups + 3 * n")
        #expect(try database.reading { try $0.wakeupTotal() } == 3 * 5 + 1)
        // A refresh that changes type and environment moves the row to its new group.
        try database.register(token(2), type: .debug, environment: .sandbox, now: 11, expiresAt: 21, cap: 100)
        try database.register(token(3), type: .charging, environment: .production, now: 11, expiresAt: 21, cap: 100)
        // A proven token moved to the other environment is unproven there (SPEC 5, guard).
        try database.register(token(5), type: .charging, environment: .sandbox, now: 12, expiresAt: 22, cap: 100)
        try database.unregister(token(1))
        // APNs says 4's token is gone: the sweep's outcome deletes it, and its counters follow.
        try database.apply([.delete(.wake(token(4)), registeredAtOrBefore: 10)])
        let (counters, scan) = try both(in: database)
        #expect(counters == scan)
        // A refresh keeps the wake-ups (5's, now in sandbox); the deleted ones took theirs.
        #expect(counters == ["charging/production:1:1:3", "charging/sandbox:1:1:4", "debug/sandbox:1:1:3"])
        #expect(try database.reading { try $0.registrationCount() } == 3)
        #expect(try database.reading { try $0.wakeupTotal() } == 10)
        // One more 200 for 3 (its first: proven), then expiry takes 2 and 3 with their wake-ups.
        try database.apply(
            [.delivered(.wake(token(3)), selectedRegisteredAt: 11, at: 16, nextPushAt: 100)],
            answered: [
                AnsweredPush(
                    key: .wake(token(3)),
                    attempt: PushAttempt(token: token(3), sentAt: 15, answeredAt: 16, status: 200, reason: nil, apnsID: nil),
                    activityType: .charging, environment: .production, previousDeliveryAt: nil)
            ])
        #expect(
            try both(in: database).counters == ["charging/production:1:0:4", "charging/sandbox:1:1:4", "debug/sandbox:1:1:3"])
        #expect(try database.reading { try $0.expire(registeredAtOrBefore: 11) } == 2)
        let afterExpiry = try both(in: database)
        #expect(afterExpiry.counters == afterExpiry.scan)
        #expect(afterExpiry.counters == ["charging/sandbox:1:1:4"])
        #expect(try database.reading { try $0.wakeupTotal() } == 4)
        try database.unregister(token(5))
        #expect(try both(in: database).counters.isEmpty, "empty groups are not listed")
    }

    /// Issue 30 point 1: the unproven cap was one total, so junk sent to a quiet sandbox made
    /// every new production token 503 (reproduced with the cap at 3). It counts per environment.
    @Test(arguments: TestEngine.every)
    func theUnprovenCapCountsEachEnvironmentApart(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "groups")
        for seed in 1...3 {
            #expect(try database.register(token(seed), environment: .sandbox, now: 10, unprovenCap: 3) == .created)
        }
        #expect(throws: StoreError.unprovenCapacityReached(limit: 3, environment: .sandbox), "a fourth sandbox token") {
            try database.register(token(4), environment: .sandbox, now: 11, unprovenCap: 3)
        }
        #expect(try database.register(token(5), environment: .production, now: 11, unprovenCap: 3) == .created)
        #expect(try database.register(token(6), environment: .production, now: 11, unprovenCap: 3) == .created)
        #expect(try database.register(token(1), environment: .sandbox, now: 12, unprovenCap: 3) == .refreshed)
        let statements = try database.engine.openRegistrations()
        defer { statements.close() }
        let counts = try statements.registrationCounts()
        #expect(counts == RegistrationCounts(total: [.defaultApp: 5], unproven: [.defaultApp: [.sandbox: 3, .production: 2]]))
    }

    /// SQLite's own migrations: on SQLite alone.
    @Test func theMigrationCountsTheRowsAlreadyThere() throws {
        let folder = TemporaryDirectory("groups")
        let path = folder.file("old.sqlite")
        do {
            let old = try SQLiteConnection(path: path)
            try Schema.migrate(old, upTo: 2)
            for seed in 0..<5 {
                try old.statement(
                    "INSERT INTO registrations (push_token, activity_type, environment, registered_at, expires_at, next_push_at, wakeup_count, last_push_at) VALUES (?, ?, 'production', 1, 2, 1, ?, ?)"
                ).run([
                    .text(sampleToken(seed)), .text(seed % 2 == 0 ? "charging" : "debug"), .integer(Int64(seed)),
                    seed == 0 ? .null : .integer(1),
                ])
            }
        }
        let migrated = TestDatabase(sqliteFile: path)
        try migrated.reading { _ in }
        let counters = try migrated.rows(
            "SELECT activity_type, environment, n, unproven, wakeups FROM target_groups ORDER BY 1, 2")
        #expect(counters == [["charging", "production", "3", "1", "6"], ["debug", "production", "2", "0", "4"]])
    }
}
