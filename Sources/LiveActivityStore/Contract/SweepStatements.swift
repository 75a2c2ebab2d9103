import LiveActivityDomain

/// A sweep's statements (SPEC 5): expiry, the due rows, the outcome batches and their figures,
/// the run history. Run by one sweep at a time per host; on a database several hosts share by
/// several at once, each under its own lease (`SharedDatabase`: the lease is the connection's,
/// set once per sweep, so these statements name none).
public protocol SweepStatements: CountingStatements, FigureQueries {
    /// How many registrations were made at or before `cutoff` (ms): what `deleteExpired` would delete.
    func countExpired(registeredAtOrBefore cutoff: Int64) throws -> Int

    /// Deletes registrations made at or before `cutoff` (ms) with their targets, in the
    /// caller's transaction (`expire` holds one); how many targets went, as the counters count them.
    func deleteExpired(registeredAtOrBefore cutoff: Int64) throws -> [CountedTarget: Int]

    /// How many targets of `environments` are due at `cutoff`, per environment and kind.
    func dueCounts(atOrBefore cutoff: Int64, environments: [APNsEnvironment]) throws -> [PushScope: Int]

    /// Up to `limit` due targets of `environments` and of a kind this build knows, in the due
    /// order (oldest first, then by registration and kind), after `position` (nil: from the
    /// start), that are no other sweep's: on a shared database each is claimed under the
    /// connection's lease in the same statement, which commits before any push.
    func claimDue(
        atOrBefore cutoff: Int64, environments: [APNsEnvironment], after position: DuePosition?, limit: Int
    ) throws -> [DueRead]

    /// The interval groups (kind, type, asked interval) of the targets `holdUnreached` would hold
    /// in `scope`, so the interval rule is applied above, once per group. A stored type or kind
    /// this build does not know is left out (its rows are left as they are).
    func unreachedGroups(
        in scope: FaultScope, dueAtOrBefore cutoff: Int64, registeredAtOrBefore start: Int64
    ) throws -> [IntervalGroup]

    /// Holds, in one statement, the targets of `group` in `scope` that a fault stopped before
    /// the sweep wrote anything for them: still due at `cutoff`, registered at or before `start`,
    /// not answered 200 since, and no other live sweep's (on a shared database, the connection's
    /// lease names this host). Each waits until `nextPushAt` with `reason`; its failures stay as
    /// they are. How many.
    func holdUnreached(
        in scope: FaultScope, group: IntervalGroup, dueAtOrBefore cutoff: Int64, registeredAtOrBefore start: Int64,
        reason: String, nextPushAt: Int64
    ) throws -> Int

    /// The environments and kinds in which a push was ever answered 200 in this database (the guard).
    func scopesEverDelivered() throws -> Set<PushScope>

    /// Keeps `firsts` (an environment and kind, and the time of its first 200 in a batch) among them.
    func markEverDelivered(_ firsts: [PushScope: Int64]) throws

    /// The acks waiting on the wake targets of the registrations `keys` (`AckRule.waits`), held
    /// until the transaction ends.
    func waitingAcks(among keys: [RegistrationKey]) throws -> [WaitingAck]

    /// Applies `rows` (at most one per target) where each row is still the one the sweep read
    /// (and on a shared database still under the connection's lease); what became of each, in
    /// order, and the targets deleted (a wake target's registration's others with it), as the
    /// counters count them.
    func write(_ rows: [OutcomeRow]) throws -> OutcomeRow.Written

    /// Adds pushes answered 200 to the hourly delivery figures.
    func add(_ deliveries: [DeliveryCount]) throws

    /// Keeps the run for `stats` and the figures, and prunes what `retention` says has aged out.
    func record(_ summary: SweepSummary, host: String, retention: Retention) throws

    /// The fingerprint of the APNs settings the last sweep of `host` ran with, and keeps
    /// `fingerprint` as that host's new one; nil when none was kept. Per host: hosts whose
    /// settings differ (a key rotated one host at a time) must not release every held row at
    /// each other's runs.
    func exchangeSettingsFingerprint(_ fingerprint: String, host: String) throws -> String?

    /// Makes due at `now` the targets a fault or the guard held for one of `reasons`
    /// (the operator changed the APNs settings: a fixed deployment reaches its devices at once).
    func releaseHeld(reasons: [String], now: Int64) throws -> Int
}

extension SweepStatements {
    /// Expires the registrations made at or before `cutoff` (ms), every target of theirs with
    /// them, and their counters in the same transaction; how many registrations.
    public func expire(registeredAtOrBefore cutoff: Int64) throws -> Int {
        try transaction {
            let gone = try deleteExpired(registeredAtOrBefore: cutoff)
            let deltas = TargetCounting.deltas(removing: gone)
            if !deltas.isEmpty { try adjust(deltas) }
            return gone.filter { $0.key.kind == .wake }.values.reduce(0, +)
        }
    }
}
