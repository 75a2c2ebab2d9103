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

    // StoreSQL's `AckCount` SQL, each prepared once on this connection.
    private static let ackHour = PostgresShape<AckCount>("ack hours", AckCount.hourSQL())
    private static let ackTotal = PostgresShape<AckCount>("ack totals", AckCount.totalSQL())
    /// A statement per delay bucket, numbered by it.
    private static let ackDeliveryHour = (0..<AckDelayBuckets.count).map { bucket in
        PostgresShape<AckCount.Matched>("ack delivery hour", number: bucket, AckCount.deliveryHourSQL(bucket: bucket))
    }
    private static let ackDelayTotal = PostgresShape<AckCount.Bucketed>("ack delay total", AckCount.delayBucketSQL())
}
