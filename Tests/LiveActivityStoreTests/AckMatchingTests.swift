import LiveActivityStore
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore

/// The hour the tests start in (the fixture's and the tests' own).
private let t0: Int64 = 1_800_000_000_000 - 1_800_000_000_000 % 3_600_000

/// A database of the test's own on one engine, and the writes and reads the ack tests make.
private struct Acks {
    let database: TestDatabase
    let policy = IntervalPolicy(typeSeconds: [.charging: 300, .debug: 60], maximumSeconds: 3600)

    init(_ engine: TestEngine) throws { database = try TestDatabase(engine, label: "acks") }

    func token(_ seed: Int) -> PushToken { PushToken(trusted: sampleToken(seed)) }

    func register(_ seed: Int, interval: Int? = nil) throws {
        try database.register(
            token(seed), type: .charging, environment: .sandbox, now: t0, expiresAt: t0 + 8 * 3_600_000, cap: 100,
            interval: interval)
    }

    /// A push answered at `time`, written as the sweep writes it; its next push `next` (by
    /// default an hour on: no push is on its way when the tests ack).
    func pushed(_ seed: Int, at time: Int64, status: Int = 200, next: Int64? = nil) throws {
        let answered = AnsweredPush(
            key: .wake(token(seed)),
            attempt: PushAttempt(
                token: token(seed), sentAt: time - 20, answeredAt: time, status: status,
                reason: status == 200 ? nil : "InternalServerError", apnsID: "ID"),
            activityType: .charging, environment: .sandbox, previousDeliveryAt: nil)
        let nextPush = next ?? time + 3_600_000
        let write: OutcomeWrite =
            status == 200
            ? .delivered(.wake(token(seed)), selectedRegisteredAt: t0, at: time, nextPushAt: nextPush)
            : .failed(.wake(token(seed)), selectedRegisteredAt: t0, reason: "InternalServerError", nextPushAt: nextPush)
        try database.apply([write], answered: [answered], policy: policy)
    }

    func ack(_ seed: Int, at time: Int64) throws -> AckOutcome? {
        try database.acknowledge(token(seed), now: time, policy: policy)
    }

    func latest(_ seed: Int) throws -> PushAttempt? {
        guard case .found(let history) = try database.history(sampleToken(seed)) else { return nil }
        return history.attempts.first
    }

    func totals() throws -> [String: Int64] {
        Dictionary(
            uniqueKeysWithValues: try database.rows("SELECT outcome, count FROM ack_totals").map {
                ($0[0] ?? "", Int64($0[1] ?? "") ?? -1)
            })
    }

    func hourFigures() throws -> (acked: Int64, delaySum: Int64, buckets: [Int64])? {
        let columns = (0..<AckDelayBuckets.count).map { "d\($0)" }.joined(separator: ", ")
        guard
            let row = try database.rows(
                "SELECT acked, delay_sum_ms, \(columns) FROM delivery_hours WHERE hour = \(t0 / 3_600_000)"
            ).first
        else { return nil }
        let numbers = row.map { Int64($0 ?? "") ?? -1 }
        return (numbers[0], numbers[1], Array(numbers.dropFirst(2)))
    }
}

/// `POST /wakeup/ack`'s rule in the store (SPEC 3): it marks the latest push answered 200 when
/// that has no ack yet and was answered at most two effective intervals ago; everything else
/// changes nothing but its counter. Each test takes its engine as its argument.
@Suite struct AckMatchingTests {
    @Test(arguments: TestEngine.real)
    func anAckMatchesTheLatest200AndKeepsItsDelay(engine: TestEngine) throws {
        let acks = try Acks(engine)
        try acks.register(1)
        try acks.pushed(1, at: t0 + 1000)
        #expect(try acks.ack(1, at: t0 + 4500) == .matched)
        let push = try #require(try acks.latest(1))
        #expect(push.ackedAt == t0 + 4500 && push.ackDelayMilliseconds == 3500)
        let figures = try #require(try acks.hourFigures())
        #expect(figures.acked == 1 && figures.delaySum == 3500)
        #expect(figures.buckets[AckDelayBuckets.index(ofMilliseconds: 3500)] == 1 && figures.buckets.reduce(0, +) == 1)
        #expect(try acks.totals() == ["matched": 1])
    }

    @Test(arguments: TestEngine.real)
    func aSecondAckIsADuplicateAndChangesNothing(engine: TestEngine) throws {
        let acks = try Acks(engine)
        try acks.register(1)
        try acks.pushed(1, at: t0 + 1000)
        #expect(try acks.ack(1, at: t0 + 2000) == .matched)
        #expect(try acks.ack(1, at: t0 + 9000) == .duplicate)
        #expect(try acks.latest(1)?.ackedAt == t0 + 2000)
        #expect(try acks.hourFigures()?.acked == 1)
        #expect(try acks.totals() == ["matched": 1, "duplicate": 1])
    }

    @Test(arguments: TestEngine.real)
    func withNoPushAnswered200ThereIsNothingToMatch(engine: TestEngine) throws {
        let acks = try Acks(engine)
        try acks.register(1)
        try acks.database.execute("UPDATE push_targets SET next_push_at = \(t0 + 3_600_000)")
        #expect(try acks.ack(1, at: t0) == .unmatched, "registered, never pushed, none on its way")
        try acks.pushed(1, at: t0 + 1000, status: 500)
        #expect(try acks.ack(1, at: t0 + 2000) == .unmatched, "the only push failed")
        #expect(try acks.latest(1)?.ackedAt == nil)
        #expect(try acks.ack(99, at: t0 + 2000) == .unmatched, "not registered")
        #expect(try acks.totals() == ["unmatched": 3])
        #expect(try acks.hourFigures()?.acked == nil, "no figures beyond the counters")
    }

    @Test(arguments: TestEngine.every)
    func anAckLaterThanTwoIntervalsIsUnmatched(engine: TestEngine) throws {
        let acks = try Acks(engine)
        try acks.register(1)
        try acks.pushed(1, at: t0)
        #expect(try acks.ack(1, at: t0 + 600_001) == .unmatched, "two charging intervals and a millisecond")
        #expect(try acks.latest(1)?.ackedAt == nil)
        try acks.register(2, interval: 900)
        try acks.pushed(2, at: t0)
        #expect(try acks.ack(2, at: t0 + 1_700_000) == .matched, "within two of its own 900 s")
        try acks.register(3, interval: 86_400)
        try acks.pushed(3, at: t0, next: t0 + 8 * 3_600_000)
        #expect(try acks.ack(3, at: t0 + 7_200_001) == .unmatched, "two of the 3600 s maximum, not of what it asked")
    }

    @Test(arguments: TestEngine.every)
    func theLatest200IsTheOneMatched(engine: TestEngine) throws {
        let acks = try Acks(engine)
        try acks.register(1)
        try acks.pushed(1, at: t0 + 1000)
        try acks.pushed(1, at: t0 + 301_000)
        try acks.pushed(1, at: t0 + 601_000, status: 500)
        #expect(try acks.ack(1, at: t0 + 602_000) == .matched)
        guard case .found(let history) = try acks.database.history(sampleToken(1)) else {
            Issue.record("registered")
            return
        }
        #expect(history.attempts.map(\.ackedAt) == [nil, t0 + 602_000, nil])
        #expect(history.attempts[1].ackDelayMilliseconds == 301_000)
    }

    // MARK: - An ack that comes while its push is on its way (issue 26, point 7)

    /// The phone wakes and acks a second after APNs's 200, before the sweep wrote that answer
    /// (it writes in batches): the ack waits on the row and is matched when the answer is written.
    @Test(arguments: TestEngine.real)
    func anAckBeforeItsPushIsWrittenIsMatchedWhenItIs(engine: TestEngine) throws {
        let acks = try Acks(engine)
        try acks.register(1)
        #expect(try acks.ack(1, at: t0 + 1200) == nil, "due: its push may be on its way, so it waits")
        #expect(try acks.totals().isEmpty, "not counted yet")
        try acks.pushed(1, at: t0 + 200)  // sent at t0 + 180, answered 200 at t0 + 200, written now
        let push = try #require(try acks.latest(1))
        #expect(push.ackedAt == t0 + 1200 && push.ackDelayMilliseconds == 1000)
        #expect(try acks.totals() == ["matched": 1])
        #expect(try acks.hourFigures()?.acked == 1)
        #expect(try acks.database.scalar("SELECT count(*) FROM push_targets WHERE waiting_ack_at IS NOT NULL") == 0)
    }

    /// An ack that came before the next push was even sent is for the push before, whatever the
    /// time: judged when the next one is written, it goes to the right one with its own delay.
    @Test(arguments: TestEngine.real)
    func aWaitingAckSentBeforeTheNextPushIsForThePushBefore(engine: TestEngine) throws {
        let acks = try Acks(engine)
        try acks.register(1)
        try acks.pushed(1, at: t0 + 1000, next: t0 + 301_000)
        #expect(try acks.ack(1, at: t0 + 302_000) == nil, "the next push is due: it waits")
        try acks.pushed(1, at: t0 + 303_100)  // sent at t0 + 303_080, after the ack
        guard case .found(let history) = try acks.database.history(sampleToken(1)) else {
            Issue.record("registered")
            return
        }
        #expect(history.attempts.map(\.ackedAt) == [nil, t0 + 302_000])
        #expect(history.attempts[1].ackDelayMilliseconds == 301_000)
        #expect(try acks.totals() == ["matched": 1])
    }

    @Test(arguments: TestEngine.real)
    func aSecondAckWhileOneWaitsIsADuplicateAndAFailedPushLeavesItUnmatched(engine: TestEngine) throws {
        let acks = try Acks(engine)
        try acks.register(1)
        #expect(try acks.ack(1, at: t0 + 100) == nil)
        #expect(try acks.ack(1, at: t0 + 200) == .duplicate)
        try acks.pushed(1, at: t0 + 300, status: 500)
        #expect(try acks.totals() == ["duplicate": 1, "unmatched": 1], "no push answered 200 was sent before it")
        #expect(try acks.latest(1)?.ackedAt == nil)
    }

    @Test func theDelayQuantilesComeFromTheBuckets() {
        #expect(AckDelayBuckets.index(ofMilliseconds: 0) == 0)
        #expect(AckDelayBuckets.index(ofMilliseconds: 500) == 0)
        #expect(AckDelayBuckets.index(ofMilliseconds: 1000) == 1)
        #expect(AckDelayBuckets.index(ofMilliseconds: 1001) == 2)
        #expect(AckDelayBuckets.index(ofMilliseconds: 10_000_000) == AckDelayBuckets.count - 1)
        var buckets = [Int64](repeating: 0, count: AckDelayBuckets.count)
        buckets[3] = 10  // (2 s, 5 s]
        #expect(AckDelayBuckets.quantile(0.5, of: buckets) == 3.5)
        #expect(AckDelayBuckets.quantile(0.5, of: [Int64](repeating: 0, count: AckDelayBuckets.count)) == nil)
        buckets[AckDelayBuckets.count - 1] = 90
        #expect(AckDelayBuckets.quantile(0.9, of: buckets) == 3600)
    }
}
