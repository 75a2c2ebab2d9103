import LiveActivityDomain

/// The responder's statements (SPEC 3), each over a whole group-commit batch where that saves
/// round trips, run inside the writer's transaction. Which write wins, the caps, and which push
/// an ack matches are decided above (`StoreWrite`, `AckRule`): an engine only reads and writes.
public protocol RegistrationStatements: StoreConnection, FigureQueries {
    /// Refreshes each stored registration (SPEC 3: registered now, new expiry, due at once,
    /// type, environment and interval replaced, failures and their reason cleared, its pushes
    /// no longer counting as proof when the environment changed); whether each was stored.
    func refresh(_ registrations: [NewRegistration]) throws -> [Bool]

    /// Stores registrations that are not stored yet, unproven and due at once.
    func insert(_ registrations: [NewRegistration]) throws

    /// The stored registrations and the unproven among them by environment, from counters.
    func registrationCounts() throws -> RegistrationCounts

    /// Deletes each token's registration; whether each was stored.
    func delete(_ tokens: [PushToken]) throws -> [Bool]

    /// What acks for `tokens` need of their registrations (nil: not registered), held against
    /// the sweep's writes until the transaction ends.
    func ackSubjects(_ tokens: [PushToken]) throws -> [AckSubject?]

    /// Writes what acks did to their rows.
    func write(_ acks: [AckWrite]) throws

    /// Adds acks to the figures.
    func count(_ acks: [AckCount]) throws
}
