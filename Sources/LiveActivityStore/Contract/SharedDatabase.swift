import LiveActivityDomain

/// What a connection to a database several hosts share (PostgreSQL) adds to the contract (SPEC
/// 4, "Two engines, one contract"; SPEC 5, "Several hosts"): the server's clock, the lock on a
/// sweep's host name and the lease its claims go under. Only such an engine conforms: one host's
/// database (SQLite, the tests' memory) has this host's clock, the sweep's lock beside it and no
/// other sweep to keep off, so it has nothing to say here. Callers ask for it (`as? any
/// SharedDatabase`) where they need it and do without otherwise.
public protocol SharedDatabase: StoreConnection {
    /// How far the server's clock, which due times, leases and expiry go by, is ahead of this
    /// host's (ms), measured when the connection opened, so hosts whose clocks differ agree.
    var clockOffsetMilliseconds: Int64 { get }

    /// The server's clock now (Unix ms), read anew. A long-lived program (the responder) anchors
    /// it to the monotonic clock and reads it again now and then, so a step of the host's clock
    /// moves no time it stores (SPEC 4).
    func databaseNow() throws -> Int64

    /// Takes the database's lock on the host name `host` for as long as this connection is open
    /// (a host name is one host's, and a sweep treats the leases stamped with it as its own); or
    /// who holds it: a live sweep of this role (a second host under the same name), or a session
    /// of another role (which no sweep is: someone meddles).
    func holdHostName(_ host: String) throws -> HostNameClaim

    /// The lease this connection's claims and outcome writes go under (`claimDue`,
    /// `unreachedGroups`, `holdUnreached`, `write(_:)` of `OutcomeRow`s): set by a sweep once,
    /// before its first claim, on each connection it uses; nil until then, when those statements
    /// throw a fault rather than claim or write under no lease.
    var lease: SweepLease? { get set }

    /// Gives back the rows this connection's lease claimed and no outcome was written for (the
    /// sweep stopped sending): due at once for any host.
    func releaseClaims() throws
}

/// What a sweep found when it claimed its host name (`SharedDatabase.holdHostName`).
public enum HostNameClaim: Sendable, Equatable {
    /// This sweep holds it until its session ends.
    case held
    /// A live session of the sweep's own role holds it: another host runs under the same name.
    case inUseBySweep
    /// A session of another role holds it (`role`): not a sweep; nothing of ours takes it.
    case heldByAnotherRole(String)
}
