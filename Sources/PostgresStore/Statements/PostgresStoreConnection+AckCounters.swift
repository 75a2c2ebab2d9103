import LiveActivityDomain
import LiveActivityStore
import PostgresClient
import StoreSQL

/// The acks' counters on PostgreSQL (SPEC 3's POST /wakeup/ack): four upserts an ack that matched
/// a push, two for one that did not, every ack of a batch in one pipeline.
extension PostgresStoreConnection {
    func count(_ acks: [AckCount]) throws {
        guard !acks.isEmpty else { return }
        try storeFaults {
            // One round trip for every counter of every ack; each statement prepared once and
            // found by its shape, its binds listed straight from the ack (its text built once).
            _ = try connection.pipeline { pipeline throws(PostgresError) in
                for ack in acks {
                    let app = PostgresValue.text(ack.app.rawValue)
                    let outcome = PostgresValue.text(ack.outcome.rawValue)
                    let hour: [PostgresValue] = [.integer(DeliveryHour.of(ack.at)), outcome, app]
                    pipeline.run(try statement("ack hours", binds: hour) { Self.ackHour(ack) }, hour)
                    let total: [PostgresValue] = [outcome, app, .integer(ack.match?.delayMilliseconds ?? 0)]
                    pipeline.run(try statement("ack totals", binds: total) { Self.ackTotal(ack) }, total)
                    guard let match = ack.match else { continue }
                    let bucket = AckDelayBuckets.index(ofMilliseconds: match.delayMilliseconds)
                    let delivery: [PostgresValue] = [
                        .integer(DeliveryHour.of(match.answeredAt)), .text(match.activityType.rawValue),
                        .text(match.environment.rawValue), .integer(match.delayMilliseconds), app,
                    ]
                    pipeline.run(
                        try statement("ack delivery hour", shape: bucket, binds: delivery) {
                            Self.ackDeliveryHour(match, bucket: bucket, app: ack.app)
                        }, delivery)
                    let delay: [PostgresValue] = [.integer(Int64(bucket)), app]
                    pipeline.run(
                        try statement("ack delay total", binds: delay) { Self.ackDelayTotal(bucket, app: ack.app) }, delay)
                }
            }
        }
    }

    // MARK: - The ack counters' statements

    private static func ackHour(_ ack: AckCount) -> PostgresSQL {
        """
        INSERT INTO ack_hours AS a (hour, outcome, app, count)
        VALUES (\(bind: DeliveryHour.of(ack.at)), \(bind: ack.outcome.rawValue), \(bind: ack.app.rawValue), 1)
        ON CONFLICT (hour, outcome, app) DO UPDATE SET count = a.count + 1
        """
    }

    private static func ackTotal(_ ack: AckCount) -> PostgresSQL {
        """
        INSERT INTO ack_totals AS a (outcome, app, count, delay_sum_ms)
        VALUES (\(bind: ack.outcome.rawValue), \(bind: ack.app.rawValue), 1, \(bind: ack.match?.delayMilliseconds ?? 0))
        ON CONFLICT (outcome, app) DO UPDATE SET count = a.count + 1, delay_sum_ms = a.delay_sum_ms + excluded.delay_sum_ms
        """
    }

    /// The column of the delay's bucket (d0 ... d10): a statement per bucket. Acks are the wakes' only.
    private static func ackDeliveryHour(_ match: AckCount.Match, bucket: Int, app: AppName) -> PostgresSQL {
        """
        INSERT INTO delivery_hours AS h (hour, activity_type, environment, push_kind, acked, delay_sum_ms, d\(raw: String(bucket)), app)
        VALUES (\(bind: DeliveryHour.of(match.answeredAt)), \(bind: match.activityType.rawValue), \
        \(bind: match.environment.rawValue), \(raw: PushKind.wake.sqlLiteral), 1, \(bind: match.delayMilliseconds), 1, \(bind: app.rawValue))
        ON CONFLICT (hour, push_kind, activity_type, environment, app) DO UPDATE SET
            acked = h.acked + 1, delay_sum_ms = h.delay_sum_ms + excluded.delay_sum_ms, \
        d\(raw: String(bucket)) = h.d\(raw: String(bucket)) + 1
        """
    }

    private static func ackDelayTotal(_ bucket: Int, app: AppName) -> PostgresSQL {
        """
        INSERT INTO ack_delay_totals AS a (bucket, app, count) VALUES (\(bind: Int64(bucket)), \(bind: app.rawValue), 1)
        ON CONFLICT (bucket, app) DO UPDATE SET count = a.count + 1
        """
    }
}
