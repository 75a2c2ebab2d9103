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
        FROM push_targets WHERE registration_token = \(bind: { .text($0.token.hex) }) AND push_kind = 'wake' \
        AND app = \(bind: { .text($0.app.rawValue) })
        """)
    /// The wake target of the key a write reads, as every ack write's `WHERE` names it.
    private static func wakeTarget<Input>(_ key: @escaping @Sendable (Input) -> RegistrationKey) -> SQLiteInputSQL<Input> {
        """
        registration_token = \(bind: { .text(key($0).token.hex) }) AND push_kind = 'wake' \
        AND app = \(bind: { .text(key($0).app.rawValue) })
        """
    }
    private static let markAck = SQLiteShape<(key: RegistrationKey, attempts: [PushAttempt])>(
        "ack: mark",
        """
        UPDATE push_targets SET attempts = \(bind: { .blob(AttemptRing.encode($0.attempts)) }) \
        WHERE \(wakeTarget { $0.key })
        """)
    private static let waitAck = SQLiteShape<(key: RegistrationKey, at: Int64, changed: Bool?)>(
        "ack: wait",
        """
        UPDATE push_targets SET waiting_ack_at = \(bind: { .integer($0.at) }), \
        waiting_changed = \(bind: { $0.changed.map { .integer($0 ? 1 : 0) } ?? .null })
        WHERE \(wakeTarget { $0.key })
        """)
    private static let cadence = SQLiteShape<(key: RegistrationKey, state: CadenceState, next: Int64)>(
        "ack: cadence",
        """
        UPDATE push_targets SET \(cadenceAssignments { $0.state }), next_push_at = \(bind: { .integer($0.next) })
        WHERE \(wakeTarget { $0.key })
        """)
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
