import LiveActivityDomain
import LiveActivityStore
import PostgresClient
import StoreSQL

/// What a database several hosts share adds on PostgreSQL (SPEC 5, "Several hosts"): the lock
/// on a sweep's host name and its lease (the server's clock is measured as the session opens,
/// `PostgresStoreConnection`).
extension PostgresStoreConnection: SharedDatabase {
    /// A session-level advisory lock, released when the session ends however it ends (a killed
    /// sweep's with its connection), keyed by a 64-bit hash of the name: another name's lock
    /// colliding with it is a chance of one in 2^64. Advisory locks need no grant, so any role
    /// that may connect could hold it (docs/POSTGRESQL.md's roles let no other role connect):
    /// when it is taken, who holds it tells a second sweep under the same name from someone else.
    func holdHostName(_ host: String) throws -> HostNameClaim {
        try storeFaults {
            let key: PostgresSQL = "hashtextextended('liveactivity sweep host ' || \(bind: host), 0)"
            let held = try firstRow("SELECT pg_try_advisory_lock(\(key))") { $0.bool(0) } ?? false
            if held { return .held }
            let holders = try rows(
                """
                SELECT a.usename::text, a.usename = current_user FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
                WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
                    AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                    AND l.classid::bigint = ((\(key)) >> 32) & 4294967295 AND l.objid::bigint = (\(key)) & 4294967295
                """
            ) { (role: $0.text(0) ?? "?", ours: $0.bool(1)) }
            if let stranger = holders.first(where: { !$0.ours }) { return .heldByAnotherRole(stranger.role) }
            return .inUseBySweep
        }
    }

    func releaseClaims() throws {
        let lease = try leaseInForce()
        try storeFaults {
            try run("UPDATE push_targets SET lease_until = NULL WHERE lease_id = \(bind: lease.id) AND lease_until IS NOT NULL")
        }
    }

    /// The lease a claim or an outcome write goes under. None set is a sweep that forgot to set
    /// it: a fault, never a claim under no lease (which another host's sweep would take at once)
    /// or an outcome written over another host's.
    func leaseInForce() throws -> SweepLease {
        guard let lease else {
            throw StoreFault(
                .other(code: "no lease"), message: "a sweep's statement ran on a session that holds no lease",
                advice: "a fault of this build: report it")
        }
        return lease
    }
}
