import LiveActivityDomain
import LiveActivityStore
import PostgresClient
import StoreSQL

/// A target's attempts as PostgreSQL's statements write them: one `bytea` element per attempt,
/// newest first (`attemptsJoined` reads them back as `AttemptRing`'s bytes). An ack's mark and a
/// sweep's attempts replaced after it matched an ack write them whole, so.
extension PostgresStoreConnection {
    /// Each attempt's entry (`AttemptRing`) as hex, newest first, the first 20.
    private static func entries(_ attempts: [PushAttempt]) -> [String?] {
        attempts.prefix(PushAttempt.kept).map { PostgresArray.hex(AttemptRing.entry($0)) }
    }

    /// The attempts a run's input holds, as the column stores them: an array of their entries
    /// (`entries`), bound as one text array and unnested in their order.
    static func attemptsSQL<Input>(_ attempts: @escaping @Sendable (Input) -> [PushAttempt]) -> InputSQL<Input, PostgresValue> {
        """
        ARRAY(
            SELECT decode(h, 'hex') FROM unnest(\(bind: { PostgresArray.text(entries(attempts($0))) })::text[]) \
        WITH ORDINALITY AS a(h, o)
            ORDER BY o)
        """
    }
}
