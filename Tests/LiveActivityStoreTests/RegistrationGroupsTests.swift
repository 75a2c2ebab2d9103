import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore

/// The per-group counters `stats` reads (schema step 2 → 3) agree with the table itself
/// after every kind of write the responder and the sweep make.
@Suite struct RegistrationGroupsTests {
    let folder = TemporaryDirectory("groups")

    /// `type/environment:count` from the counters and from a scan, sorted.
    func both(_ connection: SQLiteConnection) throws -> (counters: [String], scan: [String]) {
        func rows(_ sql: String) throws -> [String] {
            try connection.statement(sql).rows { row in "\(row.text(0) ?? "")/\(row.text(1) ?? ""):\(row.int(2))" }
        }
        return (
            try rows("SELECT activity_type, environment, n FROM registration_groups WHERE n > 0 ORDER BY 1, 2"),
            try rows("SELECT activity_type, environment, count(*) FROM registrations GROUP BY 1, 2 ORDER BY 1, 2")
        )
    }

    @Test func countersFollowInsertsRefreshesPushesAndDeletes() throws {
        let store = try RegistrationStore(path: folder.file("db.sqlite"))
        let token = { (seed: Int) in try PushToken(validating: sampleToken(seed)) }
        for seed in 1...4 {
            try store.register(token(seed), type: .charging, environment: .production, now: 10, expiresAt: 20, cap: 100)
        }
        try store.connection.execute("UPDATE registrations SET wakeup_count = wakeup_count + 3")
        // A refresh that changes type and environment moves the row to its new group.
        try store.register(token(2), type: .debug, environment: .sandbox, now: 11, expiresAt: 21, cap: 100)
        try store.register(token(3), type: .charging, environment: .production, now: 11, expiresAt: 21, cap: 100)
        try store.unregister(token(1))
        try store.connection.execute("DELETE FROM registrations WHERE push_token = '\(sampleToken(4))'")
        let (counters, scan) = try both(store.connection)
        #expect(counters == scan)
        #expect(counters == ["charging/production:1", "debug/sandbox:1"])
        try store.unregister(token(2))
        try store.unregister(token(3))
        #expect(try both(store.connection).counters.isEmpty, "empty groups are not listed")
    }

    @Test func theMigrationCountsTheRowsAlreadyThere() throws {
        let path = folder.file("old.sqlite")
        do {
            let old = try SQLiteConnection(path: path)
            try Schema.migrate(old, upTo: 2)
            for seed in 0..<5 {
                try old.statement(
                    "INSERT INTO registrations (push_token, activity_type, environment, registered_at, expires_at, next_push_at, wakeup_count) VALUES (?, ?, 'production', 1, 2, 1, ?)"
                ).run([.text(sampleToken(seed)), .text(seed % 2 == 0 ? "charging" : "debug"), .integer(Int64(seed))])
            }
        }
        let store = try RegistrationStore(path: path)
        let (counters, scan) = try both(store.connection)
        #expect(counters == scan)
        #expect(counters == ["charging/production:3", "debug/production:2"])
    }
}
