import LiveActivityDomain
import LiveActivityStore

/// A database with known delivery figures, as of `now` (issue 16): ten charging registrations
/// and one debug one answered 200 ten minutes ago; eight of the charging pushes acked, after
/// `deliveryFixtureDelays`; one acked twice (a duplicate) and one ack from a stranger (unmatched).
/// So: charging 10 answered 200, 8 acked (80%), delay median 3.0 s, p90 14.0 s, 10
/// registration-hours; debug 1 answered 200, none acked; acks matched 8, duplicate 1, unmatched 1.
@discardableResult
public func populateDeliveryFigures(_ database: TestDatabase, now: Int64) throws -> TestDatabase {
    let answeredAt = now - 10 * 60_000
    var answered: [AnsweredPush] = []
    var writes: [OutcomeWrite] = []
    for seed in 1...11 {
        let type: ActivityType = seed == 11 ? .debug : .charging
        let token = try PushToken(validating: sampleToken(seed))
        try database.register(token, type: type, environment: .production, now: answeredAt - 1000, expiresAt: now, cap: 100)
        answered.append(
            AnsweredPush(
                key: .wake(token),
                attempt: PushAttempt(
                    token: token, sentAt: answeredAt - 50, answeredAt: answeredAt, status: 200, reason: nil, apnsID: "ID-\(seed)"),
                activityType: type, environment: .production, previousDeliveryAt: nil))
        // Written as the sweep writes a 200: no longer due, so an ack is judged at once.
        writes.append(
            .delivered(.wake(token), selectedRegisteredAt: answeredAt - 1000, at: answeredAt, nextPushAt: now + 3_600_000))
    }
    try database.apply(writes, answered: answered)
    for (seed, delay) in zip(1..., deliveryFixtureDelays) {
        try database.acknowledge(try PushToken(validating: sampleToken(seed)), now: answeredAt + delay)
    }
    try database.acknowledge(try PushToken(validating: sampleToken(1)), now: now)
    try database.acknowledge(try PushToken(validating: sampleToken(99)), now: now)
    return database
}

/// The delays of the fixture's eight matched acks, in milliseconds (sum 40.5 s).
public let deliveryFixtureDelays: [Int64] = [500, 1500, 1500, 3000, 3000, 3000, 8000, 20_000]
