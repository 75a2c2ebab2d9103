import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore

/// `POST /wakeup/ack`'s rule in the store (SPEC 3): it marks the latest push answered 200 when
/// that has no ack yet and was answered at most two effective intervals ago; everything else
/// changes nothing but its counter.
@Suite struct AckMatchingTests {
    let folder = TemporaryDirectory("acks")
    let t0: Int64 = 1_800_000_000_000 - 1_800_000_000_000 % 3_600_000
    let policy = IntervalPolicy(typeSeconds: [.charging: 300, .debug: 60], maximumSeconds: 3600)
    let store: RegistrationStore

    init() throws { store = try RegistrationStore(path: folder.file("db.sqlite")) }

    func token(_ seed: Int) -> PushToken { PushToken(trusted: sampleToken(seed)) }

    func register(_ seed: Int, interval: Int? = nil) throws {
        try store.register(
            token(seed), type: .charging, environment: .sandbox, now: t0, expiresAt: t0 + 8 * 3_600_000, cap: 100,
            interval: interval)
    }

    func pushed(_ seed: Int, at time: Int64, status: Int = 200) throws {
        try SweepStore(connection: store.connection).apply(
            [],
            answered: [
                AnsweredPush(
                    attempt: PushAttempt(
                        token: token(seed), sentAt: time - 20, answeredAt: time, status: status,
                        reason: status == 200 ? nil : "InternalServerError", apnsID: "ID"),
                    activityType: .charging, environment: .sandbox, previousDeliveryAt: nil)
            ])
    }

    func ack(_ seed: Int, at time: Int64) throws -> AckOutcome {
        try store.connection.transaction { try store.acknowledgeInTransaction(token(seed), now: time, policy: policy) }
    }

    func latest(_ seed: Int) throws -> PushAttempt? {
        guard case .found(let history) = try DeviceHistory.lookup(sampleToken(seed), in: store.connection) else { return nil }
        return history.attempts.first
    }

    func totals() throws -> [String: Int64] {
        Dictionary(
            uniqueKeysWithValues: try store.connection.statement("SELECT outcome, count FROM ack_totals").rows {
                ($0.text(0) ?? "", $0.int(1))
            })
    }

    func hourFigures() throws -> (acked: Int64, delaySum: Int64, buckets: [Int64])? {
        let columns = (0..<AckDelayBuckets.count).map { "d\($0)" }.joined(separator: ", ")
        return try store.connection.statement("SELECT acked, delay_sum_ms, \(columns) FROM delivery_hours WHERE hour = ?")
            .firstRow([.integer(t0 / 3_600_000)]) { row in
                (row.int(0), row.int(1), (0..<AckDelayBuckets.count).map { row.int(Int32($0 + 2)) })
            }
    }

    @Test func anAckMatchesTheLatest200AndKeepsItsDelay() throws {
        try register(1)
        try pushed(1, at: t0 + 1000)
        #expect(try ack(1, at: t0 + 4500) == .matched)
        let push = try #require(try latest(1))
        #expect(push.ackedAt == t0 + 4500 && push.ackDelayMilliseconds == 3500)
        let figures = try #require(try hourFigures())
        #expect(figures.acked == 1 && figures.delaySum == 3500)
        #expect(figures.buckets[AckDelayBuckets.index(ofMilliseconds: 3500)] == 1 && figures.buckets.reduce(0, +) == 1)
        #expect(try totals() == ["matched": 1])
    }

    @Test func aSecondAckIsADuplicateAndChangesNothing() throws {
        try register(1)
        try pushed(1, at: t0 + 1000)
        #expect(try ack(1, at: t0 + 2000) == .matched)
        #expect(try ack(1, at: t0 + 9000) == .duplicate)
        #expect(try latest(1)?.ackedAt == t0 + 2000)
        #expect(try hourFigures()?.acked == 1)
        #expect(try totals() == ["matched": 1, "duplicate": 1])
    }

    @Test func withNoPushAnswered200ThereIsNothingToMatch() throws {
        try register(1)
        #expect(try ack(1, at: t0) == .unmatched, "registered, never pushed")
        try pushed(1, at: t0 + 1000, status: 500)
        #expect(try ack(1, at: t0 + 2000) == .unmatched, "the only push failed")
        #expect(try latest(1)?.ackedAt == nil)
        #expect(try ack(99, at: t0 + 2000) == .unmatched, "not registered")
        #expect(try totals() == ["unmatched": 3])
        #expect(try hourFigures()?.acked == nil, "no figures beyond the counters")
    }

    @Test func anAckLaterThanTwoIntervalsIsUnmatched() throws {
        try register(1)
        try pushed(1, at: t0)
        #expect(try ack(1, at: t0 + 600_001) == .unmatched, "two charging intervals and a millisecond")
        #expect(try latest(1)?.ackedAt == nil)
        try register(2, interval: 900)
        try pushed(2, at: t0)
        #expect(try ack(2, at: t0 + 1_700_000) == .matched, "within two of its own 900 s")
        try register(3, interval: 86_400)
        try pushed(3, at: t0)
        #expect(try ack(3, at: t0 + 7_200_001) == .unmatched, "two of the 3600 s maximum, not of what it asked")
    }

    @Test func theLatest200IsTheOneMatched() throws {
        try register(1)
        try pushed(1, at: t0 + 1000)
        try pushed(1, at: t0 + 301_000)
        try pushed(1, at: t0 + 601_000, status: 500)
        #expect(try ack(1, at: t0 + 602_000) == .matched)
        guard case .found(let history) = try DeviceHistory.lookup(sampleToken(1), in: store.connection) else {
            Issue.record("registered")
            return
        }
        #expect(history.attempts.map(\.ackedAt) == [nil, t0 + 602_000, nil])
        #expect(history.attempts[1].ackDelayMilliseconds == 301_000)
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
