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
            // found by its shape, its binds read from the ack (its text built once).
            _ = try connection.pipeline { pipeline throws(PostgresError) in
                for ack in acks {
                    try add(Self.ackHour, ack, to: pipeline)
                    try add(Self.ackTotal, ack, to: pipeline)
                    guard let match = ack.match else { continue }
                    let bucket = AckDelayBuckets.index(ofMilliseconds: match.delayMilliseconds)
                    try add(Self.ackDeliveryHour[bucket], (match, ack.app), to: pipeline)
                    try add(Self.ackDelayTotal, (bucket, ack.app), to: pipeline)
                }
            }
        }
    }

    /// Queues `shape` with the values `input` binds on `pipeline`.
    private func add<Input>(_ shape: PostgresShape<Input>, _ input: Input, to pipeline: PostgresPipeline)
        throws(PostgresError)
    {
        pipeline.run(try statement(shape), shape.values(input))
    }

    // MARK: - The ack counters' statements

    private static let ackHour = PostgresShape<AckCount>(
        "ack hours",
        """
        INSERT INTO ack_hours AS a (hour, outcome, app, count)
        VALUES (\(bind: { .integer(DeliveryHour.of($0.at)) }), \(bind: { .text($0.outcome.rawValue) }), \
        \(bind: { .text($0.app.rawValue) }), 1)
        ON CONFLICT (hour, outcome, app) DO UPDATE SET count = a.count + 1
        """)

    private static let ackTotal = PostgresShape<AckCount>(
        "ack totals",
        """
        INSERT INTO ack_totals AS a (outcome, app, count, delay_sum_ms)
        VALUES (\(bind: { .text($0.outcome.rawValue) }), \(bind: { .text($0.app.rawValue) }), 1, \
        \(bind: { .integer($0.match?.delayMilliseconds ?? 0) }))
        ON CONFLICT (outcome, app) DO UPDATE SET count = a.count + 1, delay_sum_ms = a.delay_sum_ms + excluded.delay_sum_ms
        """)

    /// The column of the delay's bucket (d0 ... d10): a statement per bucket, numbered by it. Acks
    /// are the wakes' only.
    private static let ackDeliveryHour = (0..<AckDelayBuckets.count).map { bucket in
        PostgresShape<(match: AckCount.Match, app: AppName)>(
            "ack delivery hour", number: bucket,
            """
            INSERT INTO delivery_hours AS h (hour, activity_type, environment, push_kind, acked, delay_sum_ms, d\(raw: String(bucket)), app)
            VALUES (\(bind: { .integer(DeliveryHour.of($0.match.answeredAt)) }), \
            \(bind: { .text($0.match.activityType.rawValue) }), \
            \(bind: { .text($0.match.environment.rawValue) }), \(raw: PushKind.wake.sqlLiteral), 1, \
            \(bind: { .integer($0.match.delayMilliseconds) }), 1, \(bind: { .text($0.app.rawValue) }))
            ON CONFLICT (hour, push_kind, activity_type, environment, app) DO UPDATE SET
                acked = h.acked + 1, delay_sum_ms = h.delay_sum_ms + excluded.delay_sum_ms, \
            d\(raw: String(bucket)) = h.d\(raw: String(bucket)) + 1
            """)
    }

    private static let ackDelayTotal = PostgresShape<(bucket: Int, app: AppName)>(
        "ack delay total",
        """
        INSERT INTO ack_delay_totals AS a (bucket, app, count) VALUES (\(bind: { .integer(Int64($0.bucket)) }), \
        \(bind: { .text($0.app.rawValue) }), 1)
        ON CONFLICT (bucket, app) DO UPDATE SET count = a.count + 1
        """)
}
