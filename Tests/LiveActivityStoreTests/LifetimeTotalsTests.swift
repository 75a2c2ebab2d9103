import Foundation
import LiveActivityFigures
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore
@testable import SQLiteClient
@testable import SQLiteStore

/// Lifetime counters never go down (SPEC 7, issue #8 defect 8): the run history is pruned after
/// 30 days, but `stats`'s lifetime figure and the Prometheus `_total`s come from totals that
/// only grow. And the provider token no longer has a table in the shared database (defect 5a).
@Suite struct LifetimeTotalsTests {
    let folder = TemporaryDirectory("totals")
    let day: Int64 = 86_400_000
    let now: Int64 = 1_800_000_000_000

    func run(at time: Int64, sent: Int, failed: Int = 0, reason: String = "ServiceUnavailable") -> SweepSummary {
        var summary = SweepSummary()
        summary.startedAt = time
        summary.sent = sent
        summary.failed = failed
        summary.removed = 1
        summary.expired = 2
        if failed > 0 { summary.failureReasons = [reason: failed] }
        return summary
    }

    @Test(arguments: TestEngine.real)
    func pruningTheRunHistoryLowersNoLifetimeFigure(engine: TestEngine) throws {
        let store = try TestDatabase(engine, label: "totals")
        try store.record(run(at: now, sent: 5, failed: 3))
        try store.record(run(at: now + day, sent: 1))
        let before = try store.metricsSnapshot()
        let statsBefore = try store.statsReport(now: now + day)

        // 32 days later: both earlier runs fall out of the kept history.
        try store.record(run(at: now + 32 * day, sent: 2, failed: 1, reason: "Timeout"))
        let after = try store.metricsSnapshot()
        let statsAfter = try store.statsReport(now: now + 32 * day)

        #expect(try store.scalar("SELECT count(*) FROM sweep_runs") == 1, "the history was pruned")
        #expect(after.totals == StatsReport.RunTotals(runs: 3, sent: 8, failed: 4, removed: 3, expired: 6))
        #expect(after.totals.sent >= before.totals.sent && after.totals.runs >= before.totals.runs)
        #expect(statsAfter.lifetimeSent == 8 && statsAfter.lifetimeSent >= statsBefore.lifetimeSent)
        #expect(after.failureReasons.map { "\($0.reason)=\($0.count)" } == ["ServiceUnavailable=3", "Timeout=1"])
        #expect(statsAfter.lastWeek.sent == 2, "the 7-day window still reads the kept history")
    }

    @Test func theMigrationSeedsTheTotalsFromTheHistoryKeptSoFarAndDropsTheTokenTable() throws {
        let connection = try SQLiteConnection(path: folder.file("old.sqlite"))
        // A database as the build before issue #8 left it: a history and a cached token.
        try Schema.migrate(connection, upTo: 3)
        // Recorded as that build did (today's `record` also writes tables of later steps).
        for (id, time, sent, failed) in [(1, now, 4, 2), (2, now + day, 6, 0)] {
            try connection.execute(
                """
                INSERT INTO sweep_runs (id, started_at, duration_ms, active, sent, skipped, expired, removed, failed, outcome)
                VALUES (\(id), \(time), 0, 0, \(sent), 0, 2, 1, \(failed), 'ok')
                """)
        }
        try connection.execute(
            "INSERT INTO sweep_reasons (run_id, kind, reason, count) VALUES (1, 'failed', 'ServiceUnavailable', 2)")
        try connection.execute("INSERT INTO provider_tokens (cache_key, token, issued_at) VALUES ('k', 'jwt', 1)")

        try Schema.migrate(connection)
        let migrated = try SQLiteEngine(path: connection.path).openSweep(migrating: false)
        let totals = try migrated.runTotals(since: nil)
        #expect(totals == StatsReport.RunTotals(runs: 2, sent: 10, failed: 2, removed: 2, expired: 4))
        #expect(try migrated.lifetimeFailureReasons().map(\.count) == [2])
        let tokenTables = try connection.statement("SELECT count(*) FROM sqlite_master WHERE name = 'provider_tokens'")
            .scalarInt()
        #expect(tokenTables == 0, "the shared database still holds the provider token table")
    }
}
