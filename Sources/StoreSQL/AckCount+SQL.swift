import LiveActivityDomain
import LiveActivityStore

/// The ack figures' upserts (SPEC 4, 7) as both SQL engines write them, each engine making its
/// own `StatementShape` of them: an ack counted in its hour and in the lifetime totals, a match
/// also in its push's delivery hour and in its delay's bucket. The target table's alias (`a`,
/// `h`) names its column where PostgreSQL would find `count` ambiguous; SQLite accepts it too.
extension AckCount {
    /// A match as its delivery hour counts it, with the ack's app.
    public typealias Matched = (match: Match, app: AppName)
    /// A match's delay bucket (`AckDelayBuckets`), with the ack's app.
    public typealias Bucketed = (bucket: Int, app: AppName)

    /// The ack in its hour, by outcome and app.
    @inlinable public static func hourSQL<Value>() -> InputSQL<AckCount, Value> {
        """
        INSERT INTO ack_hours AS a (hour, outcome, app, count)
        VALUES (\(bind: { .integer(DeliveryHour.of($0.at)) }), \(bind: { .text($0.outcome.rawValue) }), \
        \(bind: { .text($0.app.rawValue) }), 1)
        ON CONFLICT (hour, outcome, app) DO UPDATE SET count = a.count + 1
        """
    }

    /// The ack in the lifetime totals, a match's delay added to their sum.
    @inlinable public static func totalSQL<Value>() -> InputSQL<AckCount, Value> {
        """
        INSERT INTO ack_totals AS a (outcome, app, count, delay_sum_ms)
        VALUES (\(bind: { .text($0.outcome.rawValue) }), \(bind: { .text($0.app.rawValue) }), 1, \
        \(bind: { .integer($0.match?.delayMilliseconds ?? 0) }))
        ON CONFLICT (outcome, app) DO UPDATE SET count = a.count + 1, delay_sum_ms = a.delay_sum_ms + excluded.delay_sum_ms
        """
    }

    /// A match in its push's hour, counted in the column of its delay's bucket (d0 ... d10,
    /// schema step 7 → 8): a statement per bucket. Acks are the wakes' only.
    @inlinable public static func deliveryHourSQL<Value>(bucket: Int) -> InputSQL<Matched, Value> {
        let column = "d\(bucket)"
        return """
            INSERT INTO delivery_hours AS h (hour, activity_type, environment, push_kind, acked, delay_sum_ms, \(raw: column), app)
            VALUES (\(bind: { .integer(DeliveryHour.of($0.match.answeredAt)) }), \
            \(bind: { .text($0.match.activityType.rawValue) }), \
            \(bind: { .text($0.match.environment.rawValue) }), \(raw: PushKind.wake.sqlLiteral), 1, \
            \(bind: { .integer($0.match.delayMilliseconds) }), 1, \(bind: { .text($0.app.rawValue) }))
            ON CONFLICT (hour, push_kind, activity_type, environment, app) DO UPDATE SET
                acked = h.acked + 1, delay_sum_ms = h.delay_sum_ms + excluded.delay_sum_ms, \(raw: column) = h.\(raw: column) + 1
            """
    }

    /// A match in its delay's bucket's lifetime total.
    @inlinable public static func delayBucketSQL<Value>() -> InputSQL<Bucketed, Value> {
        """
        INSERT INTO ack_delay_totals AS a (bucket, app, count)
        VALUES (\(bind: { .integer(Int64($0.bucket)) }), \(bind: { .text($0.app.rawValue) }), 1)
        ON CONFLICT (bucket, app) DO UPDATE SET count = a.count + 1
        """
    }
}
