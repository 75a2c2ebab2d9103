import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityFigures
@testable import LiveActivityStore

/// The 24 hours the status page draws (`StatsReport.Day`), read from the run history.
@Suite struct DayFiguresTests {
    let folder = TemporaryDirectory("day")
    let minute: Int64 = 60_000
    /// 5.5 minutes past an hour (1_800_000_000_000 is on the hour).
    let now: Int64 = 1_800_000_330_000

    func run(_ store: SweepStore, minutesAgo: Int64, active: Int, sent: Int, failed: Int = 0, reasons: [String: Int] = [:])
        throws
    {
        var summary = SweepSummary()
        summary.startedAt = now - minutesAgo * minute
        summary.active = active
        summary.sent = sent
        summary.failed = failed
        summary.failureReasons = reasons
        try store.record(summary)
    }

    @Test func runsAreBucketedPer10MinutesOver24HoursWithHoursAndReasons() throws {
        let connection = try SQLiteConnection(path: folder.file("db.sqlite"))
        try Schema.migrate(connection)
        let store = SweepStore(connection: connection)
        try run(store, minutesAgo: 1, active: 5, sent: 3, failed: 1, reasons: ["ServiceUnavailable": 1])
        try run(store, minutesAgo: 2, active: 7, sent: 2)
        try run(store, minutesAgo: 8, active: 4, sent: 4, failed: 2, reasons: ["ServiceUnavailable": 1, "TooManyRequests": 1])
        try run(store, minutesAgo: 23 * 60, active: 1, sent: 1)
        // Older than the 24 hours: in no bucket, no hour, no reason.
        try run(store, minutesAgo: 25 * 60, active: 9, sent: 9, failed: 9, reasons: ["Old": 9])

        let day = try StatsReport.gather(connection, now: now).day
        let bucket = StatsReport.Day.bucketMilliseconds
        #expect(day.start == now - now % bucket - 143 * bucket)
        #expect(
            day.buckets == [
                .init(start: now - now % bucket - 138 * bucket, runs: 1, active: 1, sent: 1, failed: 0),
                .init(start: now - now % bucket - bucket, runs: 1, active: 4, sent: 4, failed: 2),
                .init(start: now - now % bucket, runs: 2, active: 7, sent: 5, failed: 1),
            ])
        // 23 hours ago; 8 minutes ago (the hour before); 1 and 2 minutes ago.
        #expect(day.hours.map(\.answered) == [1, 4, 5])
        #expect(day.hours.last?.start == now - now % 3_600_000)
        #expect(day.hours.allSatisfy { $0.acknowledged == nil })
        #expect(
            day.failureReasons == [.init(reason: "ServiceUnavailable", count: 2), .init(reason: "TooManyRequests", count: 1)])
        #expect(day.lastRunFinishedAt == now - minute)
        #expect(!day.lastRunExitedNonZero)
    }

    @Test func anEmptyHistoryHasNoBucketsAndNoLastRun() throws {
        let connection = try SQLiteConnection(path: folder.file("empty.sqlite"))
        try Schema.migrate(connection)
        let day = try StatsReport.gather(connection, now: now).day
        #expect(day.buckets.isEmpty && day.hours.isEmpty && day.failureReasons.isEmpty)
        #expect(day.lastRunFinishedAt == nil)
    }
}
