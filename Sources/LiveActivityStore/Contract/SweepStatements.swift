import LiveActivityDomain

/// A sweep's statements (SPEC 5): expiry, the due rows, the outcome batches and their figures,
/// the run history. Run by one sweep at a time per host; on PostgreSQL by several hosts at once,
/// each with its own lease.
public protocol SweepStatements: CountingStatements, FigureQueries {
    /// Takes the database's lock on the host name `host` for as long as this connection is open
    /// (SPEC 5, "Several hosts": a host name is one host's, and a sweep treats the leases stamped
    /// with it as its own); or who holds it: a live sweep of this role (a second host under the
    /// same name), or a session of another role (which no sweep is: someone meddles). Always
    /// held on SQLite, one host, whose sweep lock beside the file suffices.
    func holdHostName(_ host: String) throws -> HostNameClaim

    /// How many registrations were made at or before `cutoff` (ms): what `deleteExpired` would delete.
    func countExpired(registeredAtOrBefore cutoff: Int64) throws -> Int

    /// Deletes registrations made at or before `cutoff` (ms) with their targets, in the
    /// caller's transaction (`expire` holds one); how many targets went, as the counters count them.
    func deleteExpired(registeredAtOrBefore cutoff: Int64) throws -> [CountedTarget: Int]

    /// How many targets of `environments` are due at `cutoff`, per environment and kind.
    func dueCounts(atOrBefore cutoff: Int64, environments: [APNsEnvironment]) throws -> [PushScope: Int]

    /// Up to `limit` due targets of `environments` and of a kind this build knows, in the due
    /// order (oldest first, then by registration and kind), after `position` (nil: from the
    /// start), that are no other sweep's: on PostgreSQL each is claimed under `lease` in the same
    /// statement, which commits before any push.
    func claimDue(
        atOrBefore cutoff: Int64, environments: [APNsEnvironment], after position: DuePosition?, limit: Int,
        lease: SweepLease
    ) throws -> [DueRead]

    /// Gives back the rows `lease` claimed and no outcome was written for (the sweep stopped
    /// sending): due at once for any host. Nothing on SQLite.
    func release(_ lease: SweepLease) throws

    /// The interval groups (kind, type, asked interval) of the targets `holdUnreached` would hold
    /// in `scope`, so the interval rule is applied above, once per group. A stored type or kind
    /// this build does not know is left out (its rows are left as they are).
    func unreachedGroups(
        in scope: FaultScope, dueAtOrBefore cutoff: Int64, registeredAtOrBefore start: Int64, lease: SweepLease
    ) throws -> [IntervalGroup]

    /// Holds, in one statement, the targets of `group` in `scope` that a fault stopped before
    /// the sweep wrote anything for them: still due at `cutoff`, registered at or before `start`,
    /// not answered 200 since, and no other live sweep's (`lease` names this host). Each waits
    /// until `nextPushAt` with `reason`; its failures stay as they are. How many.
    func holdUnreached(
        in scope: FaultScope, group: IntervalGroup, dueAtOrBefore cutoff: Int64, registeredAtOrBefore start: Int64,
        reason: String, nextPushAt: Int64, lease: SweepLease
    ) throws -> Int

    /// The environments and kinds in which a push was ever answered 200 in this database (the guard).
    func scopesEverDelivered() throws -> Set<PushScope>

    /// Keeps `firsts` (an environment and kind, and the time of its first 200 in a batch) among them.
    func markEverDelivered(_ firsts: [PushScope: Int64]) throws

    /// The acks waiting on the wake targets of the registrations `keys` (`AckRule.waits`), held
    /// until the transaction ends.
    func waitingAcks(among keys: [RegistrationKey]) throws -> [WaitingAck]

    /// Applies `rows` (at most one per target) where each row is still the one the sweep read
    /// (and on PostgreSQL still under `lease`); what became of each, in order, and the targets
    /// deleted (a wake target's registration's others with it), as the counters count them.
    func write(_ rows: [OutcomeRow], lease: SweepLease) throws -> OutcomeRow.Written

    /// Adds pushes answered 200 to the hourly delivery figures.
    func add(_ deliveries: [DeliveryCount]) throws

    /// Keeps the run for `stats` and the figures, and prunes what `retention` says has aged out.
    func record(_ summary: SweepSummary, host: String, retention: Retention) throws

    /// The fingerprint of the APNs settings the last sweep ran with, and keeps `fingerprint` as
    /// the new one; nil when none was kept.
    func exchangeSettingsFingerprint(_ fingerprint: String) throws -> String?

    /// Makes due at `now` the targets a fault or the guard held for one of `reasons`
    /// (the operator changed the APNs settings: a fixed deployment reaches its devices at once).
    func releaseHeld(reasons: [String], now: Int64) throws -> Int
}

/// What a sweep found when it claimed its host name (`SweepStatements.holdHostName`).
public enum HostNameClaim: Sendable, Equatable {
    /// This sweep holds it until its session ends.
    case held
    /// A live session of the sweep's own role holds it: another host runs under the same name.
    case inUseBySweep
    /// A session of another role holds it (`role`): not a sweep; nothing of ours takes it.
    case heldByAnotherRole(String)
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
