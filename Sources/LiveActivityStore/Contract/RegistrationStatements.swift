import LiveActivityDomain

/// The responder's statements (SPEC 3), each over a whole group-commit batch where that saves
/// round trips, run inside the writer's transaction. What a registration does to its targets, the
/// caps, and which push an ack matches are decided above (`StoreWrite`, `AckRule`): an engine
/// only reads and writes.
public protocol RegistrationStatements: CountingStatements, FigureQueries {
    /// What each registration write needs of the stored registration of each token (nil: none
    /// stored), held against the sweep's writes until the transaction ends.
    func storedTargets(_ keys: [RegistrationKey]) throws -> [StoredTargets?]

    /// Applies the targets' writes, in order.
    func write(_ targets: [TargetWrite]) throws

    /// The stored registrations and the unproven among them by environment, from counters.
    func registrationCounts() throws -> RegistrationCounts

    /// Registrations of `app` in `environment` whose wake target the mass-deletion guard holds
    /// (held at least once) and was never answered 200, oldest registered first, at most `limit`:
    /// what a new token at the unproven cap may evict (`HeldJunkEvictions`).
    func heldJunk(of app: AppName, in environment: APNsEnvironment, limit: Int) throws -> [RegistrationKey]

    /// Deletes each token's registration with its targets; the targets each deleted (none: it
    /// was not stored), as the counters count them.
    func delete(_ keys: [RegistrationKey]) throws -> [[CountedTarget]]

    /// What acks for `tokens` need of their registrations' wake targets (nil: not registered),
    /// held against the sweep's writes until the transaction ends.
    func ackSubjects(_ keys: [RegistrationKey]) throws -> [AckSubject?]

    /// Writes what acks did to their wake targets.
    func write(_ acks: [AckWrite]) throws
}
