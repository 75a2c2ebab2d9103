import LiveActivityDomain
import LiveActivityStore
import SQLiteClient
import StoreSQL

/// The ack's statements (SPEC 3, `POST /wakeup/ack`) on SQLite, run in the responder's writer
/// transaction like a registration's: the wake target's read and writes, and the ack figures.
extension SQLiteStoreConnection {
    private static let ackSubject = SQLiteShape<RegistrationKey>(
        "ack: subject",
        """
        SELECT activity_type, environment, requested_interval, next_push_at, attempts, waiting_ack_at, last_push_at,
            registered_at, activities, background_refresh, low_power, unchanged_acks
        FROM push_targets WHERE \(AckWrite.wakeTargetSQL { $0 })
        """)
    // An ack's writes (StoreSQL's `AckWrite` SQL); the attempts stored as their ring's blob.
    private static let markAck = SQLiteShape<AckWrite.Marking>(
        "ack: mark", AckWrite.markSQL(attempts: "\(bind: { .blob(AttemptRing.encode($0.attempts)) })"))
    private static let waitAck = SQLiteShape<AckWrite.Waiting>("ack: wait", AckWrite.waitSQL())
    private static let cadence = SQLiteShape<AckWrite.Pacing>("ack: cadence", AckWrite.cadenceSQL())
    // The ack figures' upserts (StoreSQL's `AckCount` SQL), each prepared once on this connection.
    private static let countAckHour = SQLiteShape<AckCount>("ack: hour", AckCount.hourSQL())
    private static let countAckTotal = SQLiteShape<AckCount>("ack: total", AckCount.totalSQL())
    private static let countAckDelay = SQLiteShape<AckCount.Bucketed>("ack: delay bucket", AckCount.delayBucketSQL())
    /// A statement per delay bucket, numbered by it.
    private static let countAckDelivery = (0..<AckDelayBuckets.count).map { bucket in
        SQLiteShape<AckCount.Matched>("ack: delivery hour", number: bucket, AckCount.deliveryHourSQL(bucket: bucket))
    }

    func ackSubjects(_ keys: [RegistrationKey]) throws -> [AckSubject?] {
        try storeFaults {
            let statement = try connection.statement(Self.ackSubject)
            return try keys.map { key in
                try statement.firstRow(
                    Self.ackSubject.values(key),
                    refusing: { (row) throws(StoredValueError) in try AckSubject(stored: row, token: key.token) })
            }
        }
    }

    func write(_ acks: [AckWrite]) throws {
        try storeFaults {
            for ack in acks {
                switch ack {
                case .mark(let key, let attempts): try connection.run(Self.markAck, (key, attempts))
                case .wait(let key, let at, let changed): try connection.run(Self.waitAck, (key, at, changed))
                case .cadence(let key, let state, let next): try connection.run(Self.cadence, (key, state, next))
                }
            }
        }
    }

    func count(_ acks: [AckCount]) throws {
        try storeFaults {
            for ack in acks {
                try connection.run(Self.countAckHour, ack)
                try connection.run(Self.countAckTotal, ack)
                guard let match = ack.match else { continue }
                let bucket = AckDelayBuckets.index(ofMilliseconds: match.delayMilliseconds)
                try connection.run(Self.countAckDelivery[bucket], (match, ack.app))
                try connection.run(Self.countAckDelay, (bucket, ack.app))
            }
        }
    }
}
