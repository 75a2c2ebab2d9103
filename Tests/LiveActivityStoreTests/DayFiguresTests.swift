import LiveActivityStore
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityFigures
@testable import LiveActivityStore

/// The 24 hours the status page draws (`StatsReport.Day`), read from the run history, on every
/// engine (the test's argument).
@Suite struct DayFiguresTests {
    let minute: Int64 = 60_000
    /// 5.5 minutes past an hour (1_800_000_000_000 is on the hour).
    let now: Int64 = 1_800_000_330_000

    func run(
        minutesAgo: Int64, active: Int, sent: Int, failed: Int = 0, reasons: [String: Int] = [:], in database: TestDatabase
    ) throws {
        var summary = SweepSummary()
        summary.startedAt = now - minutesAgo * minute
        summary.active = active
        summary.sent = sent
        summary.failed = failed
        summary.failureReasons = reasons
        try database.record(summary)
    }

    /// `count` pushes answered 200 `minutesAgo`, as a sweep's batch records them.
    func delivered(_ count: Int, minutesAgo: Int64, from seed: Int, in database: TestDatabase) throws {
        let at = now - minutesAgo * minute
        try database.apply(
            [],
            answered: (seed..<(seed + count)).map { seed in
                AnsweredPush(
                    key: .wake(PushToken(trusted: sampleToken(seed))),
                    attempt: PushAttempt(
                        token: PushToken(trusted: sampleToken(seed)), sentAt: at - 10, answeredAt: at, status: 200, reason: nil,
                        apnsID: nil),
                    activityType: .charging, environment: .production, previousDeliveryAt: nil)
            })
    }

    @Test(arguments: TestEngine.every)
    func runsAreBucketedPer10MinutesOver24HoursWithHoursAndReasons(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "day")
        // Recorded in the order they ran. Older than the 24 hours: in no bucket, no hour, no reason.
        try run(minutesAgo: 25 * 60, active: 9, sent: 9, failed: 9, reasons: ["Old": 9], in: database)
        try run(minutesAgo: 23 * 60, active: 1, sent: 1, in: database)
        try run(
            minutesAgo: 8, active: 4, sent: 4, failed: 2, reasons: ["ServiceUnavailable": 1, "TooManyRequests": 1], in: database)
        try run(minutesAgo: 2, active: 7, sent: 2, in: database)
        try run(minutesAgo: 1, active: 5, sent: 3, failed: 1, reasons: ["ServiceUnavailable": 1], in: database)

        // What APNs answered 200, by the hour it answered: 23 hours ago, 8 minutes ago (the hour
        // before), and 1 and 2 minutes ago; the runs' own counts are not the page's hours.
        try delivered(1, minutesAgo: 23 * 60, from: 1, in: database)
        try delivered(4, minutesAgo: 8, from: 10, in: database)
        try delivered(3, minutesAgo: 1, from: 20, in: database)
        try delivered(2, minutesAgo: 2, from: 30, in: database)
        try delivered(9, minutesAgo: 25 * 60, from: 40, in: database)
        let day = try database.statsReport(now: now).day
        let bucket = StatsReport.Day.bucketMilliseconds
        #expect(day.start == now - now % bucket - 143 * bucket)
        #expect(
            day.buckets == [
                .init(start: now - now % bucket - 138 * bucket, runs: 1, active: 1, sent: 1, failed: 0),
                .init(start: now - now % bucket - bucket, runs: 1, active: 4, sent: 4, failed: 2),
                .init(start: now - now % bucket, runs: 2, active: 7, sent: 5, failed: 1),
            ])
        #expect(day.hours.map(\.answered) == [1, 4, 5])
        #expect(day.hours.last?.start == now - now % 3_600_000)
        #expect(day.hours.allSatisfy { $0.acknowledged == nil })
        #expect(
            day.failureReasons == [.init(reason: "ServiceUnavailable", count: 2), .init(reason: "TooManyRequests", count: 1)])
        #expect(day.lastRunFinishedAt == now - minute)
        #expect(!day.lastRunExitedNonZero)
    }

    @Test(arguments: TestEngine.every)
    func anEmptyHistoryHasNoBucketsAndNoLastRun(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "day")
        let day = try database.statsReport(now: now).day
        #expect(day.buckets.isEmpty && day.hours.isEmpty && day.failureReasons.isEmpty)
        #expect(day.lastRunFinishedAt == nil)
    }

    /// The share of acked wakes per hour divides like by like (issue 26 point 8): the acks of the
    /// 200s APNs gave in an hour by those 200s, both filed by the hour APNs answered, not by the
    /// hour the run that sent them started. A run starting at 10:59:50 whose pushes are answered
    /// at 11:00:01 and acked at 11:00:03 is 100% in the 11 o'clock hour.
    @Test(arguments: TestEngine.every)
    func acksAreSharedOverThe200sOfTheHourAPNsAnswered(engine: TestEngine) throws {
        let store = try TestDatabase(engine, label: "day")
        let hour: Int64 = 1_800_000_000_000 + 3_600_000
        let tokens = try (1...4).map { try PushToken(validating: sampleToken($0)) }
        for token in tokens {
            try store.register(
                token, type: .charging, environment: .production, now: hour - 3_600_000, expiresAt: hour + 3_600_000, cap: 10)
        }
        let sweeps = store
        var run = SweepSummary()
        run.startedAt = hour - 10_000
        run.sent = 4
        run.durationMilliseconds = 12_000
        try sweeps.record(run)
        // Written as the sweep writes them: no push on its way when the acks come.
        try sweeps.apply(
            tokens.map {
                .delivered(.wake($0), selectedRegisteredAt: hour - 3_600_000, at: hour + 1_000, nextPushAt: hour + 3_600_000)
            },
            answered: tokens.map { token in
                AnsweredPush(
                    key: .wake(token),
                    attempt: PushAttempt(
                        token: token, sentAt: hour - 9_000, answeredAt: hour + 1_000, status: 200, reason: nil, apnsID: nil),
                    activityType: .charging, environment: .production, previousDeliveryAt: nil)
            })
        for token in tokens.prefix(3) {
            #expect(try store.acknowledge(token, now: hour + 3_000) == .matched)
        }

        let day = try store.statsReport(now: hour + 600_000).day
        let elevenOClock = try #require(day.hours.first { $0.start == hour }, "no figures for the hour APNs answered in")
        #expect(elevenOClock.answered == 4)
        #expect(elevenOClock.acknowledged == 3)
        #expect(elevenOClock.share == 0.75)
        #expect(day.hours.allSatisfy { $0.start == hour || $0.answered == 0 }, "\(day.hours)")
    }
}
