import LiveActivityDomain
import LiveActivityFigures

/// `POST /wakeup/ack` (SPEC 3) in the responder's store: an ack matches the registration's
/// latest push answered 200 when that push has no ack yet and was answered at most two of its
/// effective intervals ago. A match marks the push (its ack time and delay) and adds to the
/// figures of the hour the push was answered in; every ack counts by outcome in its own hour and
/// in the lifetime totals. Nothing else changes, and nothing of the request but the time is kept.
extension RegistrationStore {
    /// The ack of `token` at `now` (ms), inside the transaction the caller holds.
    func acknowledgeInTransaction(_ token: PushToken, now: Int64, policy: IntervalPolicy) throws -> AckOutcome {
        let (outcome, delay) = try match(token, now: now, policy: policy)
        try connection.statement(
            """
            INSERT INTO ack_hours (hour, outcome, count) VALUES (?, ?, 1)
            ON CONFLICT (hour, outcome) DO UPDATE SET count = count + 1
            """
        ).run([.integer(DeliveryHour.of(now)), .text(outcome.rawValue)])
        try connection.statement(
            """
            INSERT INTO ack_totals (outcome, count, delay_sum_ms) VALUES (?, 1, ?)
            ON CONFLICT (outcome) DO UPDATE SET count = count + 1, delay_sum_ms = delay_sum_ms + excluded.delay_sum_ms
            """
        ).run([.text(outcome.rawValue), .integer(delay ?? 0)])
        return outcome
    }

    /// Finds and, when it matches, marks the push the ack is for; the delay (ms) of a match.
    private func match(_ token: PushToken, now: Int64, policy: IntervalPolicy) throws -> (AckOutcome, Int64?) {
        guard
            let registration = try connection.statement(
                "SELECT activity_type, environment, requested_interval, attempts FROM registrations WHERE push_token = ?"
            ).firstRow([.text(token.hex)], { row in (row.text(0) ?? "", row.text(1) ?? "", row.optionalInt(2), row.blob(3)) })
        else { return (.unmatched, nil) }
        var attempts = AttemptRing.decode(registration.3 ?? [], token: token)
        guard let latest = attempts.firstIndex(where: { $0.status == 200 }) else { return (.unmatched, nil) }
        let push = attempts[latest]
        if push.ackedAt != nil { return (.duplicate, nil) }
        let type = ActivityType(rawValue: registration.0) ?? .default
        let interval = policy.effectiveMilliseconds(type, requested: registration.2.map { Int($0) })
        guard now - push.answeredAt <= 2 * interval else { return (.unmatched, nil) }

        let delay = max(0, now - push.answeredAt)
        attempts[latest].ackedAt = push.answeredAt + delay
        attempts[latest].ackDelayMilliseconds = delay
        try connection.statement("UPDATE registrations SET attempts = ?2 WHERE push_token = ?1")
            .run([.text(token.hex), .blob(AttemptRing.encode(attempts))])
        let bucket = AckDelayBuckets.index(ofMilliseconds: delay)
        // The column of the delay's bucket (d0 ... d10, schema step 7 → 8): a statement per bucket, each prepared once.
        try connection.statement(
            """
            INSERT INTO delivery_hours (hour, activity_type, environment, acked, delay_sum_ms, d\(bucket)) VALUES (?, ?, ?, 1, ?, 1)
            ON CONFLICT (hour, activity_type, environment) DO UPDATE SET
                acked = acked + 1, delay_sum_ms = delay_sum_ms + excluded.delay_sum_ms, d\(bucket) = d\(bucket) + 1
            """
        ).run([.integer(DeliveryHour.of(push.answeredAt)), .text(type.rawValue), .text(registration.1), .integer(delay)])
        try connection.statement(
            "INSERT INTO ack_delay_totals (bucket, count) VALUES (?, 1) ON CONFLICT (bucket) DO UPDATE SET count = count + 1"
        ).run([.integer(Int64(bucket))])
        return (.matched, delay)
    }
}
