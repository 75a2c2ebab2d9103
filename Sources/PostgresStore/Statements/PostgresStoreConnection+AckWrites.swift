import LiveActivityDomain
import LiveActivityStore
import PostgresClient
import StoreSQL

/// An ack's writes on its registration's wake target on PostgreSQL (SPEC 3, `POST /wakeup/ack`),
/// in the responder's transaction after `ackSubjects` locked the rows.
extension PostgresStoreConnection {
    func write(_ acks: [AckWrite]) throws {
        try storeFaults {
            for ack in acks {
                switch ack {
                case .mark(let key, let attempts): try run(Self.markAck, (key, attempts))
                case .wait(let key, let at, let changed): try run(Self.waitAck, (key, at, changed))
                case .cadence(let key, let state, let next): try run(Self.cadence, (key, state, next))
                }
            }
        }
    }

    // MARK: - The ack writes' statements (StoreSQL's `AckWrite` SQL)

    // Each prepared once on this connection and found by its shape: its text built once, not per ack.

    /// The attempts stored as an array of their entries (`attemptsSQL`).
    private static let markAck = PostgresShape<AckWrite.Marking>(
        "ack: mark", AckWrite.markSQL(attempts: attemptsSQL { $0.attempts }))
    private static let waitAck = PostgresShape<AckWrite.Waiting>("ack: wait", AckWrite.waitSQL())
    private static let cadence = PostgresShape<AckWrite.Pacing>("ack: cadence", AckWrite.cadenceSQL())
}
