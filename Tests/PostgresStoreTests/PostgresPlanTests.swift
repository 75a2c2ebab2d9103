import LiveActivityDomain
import LiveActivityStore
import TestSupport
import Testing

/// How the server runs a sweep's outcome writes: each batch reaches its rows through the key's
/// index, whatever the table's size and whatever the statistics know of the batch's values.
@Suite(
    "PostgreSQL plans")
struct PostgresPlanTests {
    /// A sweep's lease id is new each run, so the statistics never saw it. Planned for its values
    /// (the server's way for a prepared statement's first five runs), an outcome write judged
    /// that lease to match one row and scanned the whole table for every batch.
    @Test func outcomeWritesReachTheirRowsByKeyUnderALeaseTheStatisticsNeverSaw() throws {
        let database = try TestDatabase(.postgres, label: "plans")
        try database.reading { _ in }  // migrated
        let now: Int64 = 1_800_000_000_000
        // 5,000 wake targets of sampleToken(1...5000), analyzed while none carries a lease.
        try database.execute(
            """
            INSERT INTO push_targets (registration_token, push_kind, push_token, activity_type, environment, registered_at,
                expires_at, next_push_at)
            SELECT t, 'wake', t, 'charging', 'production', \(now), \(now + 28_800_000), \(now)
            FROM (SELECT 'ab' || lpad(to_hex(i), 62, '0') AS t FROM generate_series(1, 5000) AS i) AS s;
            ANALYZE push_targets
            """)
        let batches = 6  // one more than the runs the server plans for their values
        let tokens = (1...(batches * 50)).map { PushToken(trusted: sampleToken($0)) }
        try database.claim(tokens)
        let before = try scans(of: database)

        let writer = TestDatabase.leasing(try database.engine.openOutcomeWriter())
        for batch in 0..<batches {
            let writes = tokens[(batch * 50)..<((batch + 1) * 50)].map {
                OutcomeWrite.delivered(.wake($0), selectedRegisteredAt: now, at: now + 5, nextPushAt: now + 300_000)
            }
            _ = try OutcomeBatch(writes: writes).apply(to: writer, policy: IntervalPolicy())
        }
        writer.close()
        try waitForSessionsToEnd(of: database)
        let after = try scans(of: database)

        #expect(after.sequential == before.sequential, "an outcome write read the whole table")
        #expect(after.indexed > before.indexed)
        #expect(try database.scalar("SELECT count(*) FROM push_targets WHERE push_count = 1") == Int64(tokens.count))
    }

    /// The table's scans so far, as the server counts them: whole-table reads and index reads.
    private func scans(of database: TestDatabase) throws -> (sequential: Int64, indexed: Int64) {
        let row = try database.rows("SELECT seq_scan, idx_scan FROM pg_stat_user_tables WHERE relname = 'push_targets'")
        return (Int64(row.first?[0] ?? "") ?? -1, Int64(row.first?[1] ?? "") ?? -1)
    }

    /// A session reports its counts to the server's statistics as it ends, before it leaves
    /// `pg_stat_activity`: until the outcome writer's has gone, bounded.
    private func waitForSessionsToEnd(of database: TestDatabase) throws {
        let sessions = """
            SELECT count(*) FROM pg_stat_activity
            WHERE application_name = 'liveactivity-sweep outcomes' AND datname = current_database()
            """
        guard waitUntil(timeout: 20, { (try? database.scalar(sessions)) == 0 }) else { throw WaitTimedOut() }
    }

    private struct WaitTimedOut: Error {}
}
