import LiveActivityDomain
import LiveActivityStore

/// A database with known delivery figures, as of `now` (issue 16): ten charging registrations
/// and one debug one answered 200 ten minutes ago; eight of the charging pushes acked, after
/// `deliveryFixtureDelays`; one acked twice (a duplicate) and one ack from a stranger (unmatched).
/// So: charging 10 answered 200, 8 acked (80%), delay median 3.0 s, p90 14.0 s, 10
/// registration-hours; debug 1 answered 200, none acked; acks matched 8, duplicate 1, unmatched 1.
public func populatedDeliveryStore(at path: String, now: Int64) throws -> RegistrationStore {
    let store = try RegistrationStore(path: path)
    let answeredAt = now - 10 * 60_000
    var answered: [AnsweredPush] = []
    for seed in 1...11 {
        let type: ActivityType = seed == 11 ? .debug : .charging
        let token = try PushToken(validating: sampleToken(seed))
        try store.register(token, type: type, environment: .production, now: answeredAt - 1000, expiresAt: now, cap: 100)
        answered.append(
            AnsweredPush(
                attempt: PushAttempt(
                    token: token, sentAt: answeredAt - 50, answeredAt: answeredAt, status: 200, reason: nil, apnsID: "ID-\(seed)"),
                activityType: type, environment: .production, previousDeliveryAt: nil))
    }
    try SweepStore(connection: store.connection).apply([], answered: answered)
    let writer = RegistrationWriter(path: path)
    for (seed, delay) in zip(1..., deliveryFixtureDelays) {
        _ = try writer.perform(
            .acknowledge(try PushToken(validating: sampleToken(seed)), now: answeredAt + delay, policy: IntervalPolicy()))
    }
    _ = try writer.perform(.acknowledge(try PushToken(validating: sampleToken(1)), now: now, policy: IntervalPolicy()))
    _ = try writer.perform(.acknowledge(try PushToken(validating: sampleToken(99)), now: now, policy: IntervalPolicy()))
    return store
}

/// The delays of the fixture's eight matched acks, in milliseconds (sum 40.5 s).
public let deliveryFixtureDelays: [Int64] = [500, 1500, 1500, 3000, 3000, 3000, 8000, 20_000]
