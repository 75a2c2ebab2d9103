import LiveActivityDomain
import LiveActivityStore
import PostgresClient
import StoreSQL

/// The provider token on PostgreSQL (SPEC 5): a row per key (key id, team and key: the cache
/// key) that every host's sweep shares, in a table the responder's role is never granted. A
/// renewal holds that row's lock from its read to its write, so two hosts never both sign a new
/// token for one key: the second finds the first one's and uses it, and APNs never answers
/// TooManyProviderTokenUpdates for hosts added. Hosts or apps with another key have a row of
/// their own and never overwrite this one. A session of its own per call (a sweep asks once or
/// twice a run).
///
/// A row lock, not an advisory lock: advisory locks need no grant, so any role that may connect
/// could take one and stop every host's renewal, while a row lock needs the table's UPDATE right.
/// The lock is bounded both ways: a renewer that freezes or loses the network inside its
/// transaction has its session ended by the server (`idle_in_transaction_session_timeout`), and
/// one that waits gives up before its own call's bound (`lock_timeout`).
struct ProviderTokenTable: ProviderTokenStore {
    let conninfo: PostgresConninfo

    /// How long a renewal's transaction may sit idle (the renewer frozen or cut off) before the
    /// server ends its session and lets the row go.
    static let idleRenewalTimeout = "10s"
    /// How long another renewal waits for the row; above the idle bound, below `callTimeout`.
    static let renewalLockTimeout = "15s"

    private func session() throws -> PostgresStoreConnection {
        try PostgresStoreConnection(conninfo, program: "liveactivity-sweep token", migrating: true)
    }

    func load(cacheKey: String) throws -> ProviderToken? {
        let store = try session()
        defer { store.close() }
        return try store.storeFaults {
            try store.firstRow("SELECT token, issued_at FROM provider_tokens WHERE cache_key = \(bind: cacheKey)") {
                Self.token($0)
            } ?? nil
        }
    }

    func renew(cacheKey: String, _ renew: (ProviderToken?) throws -> ProviderToken) throws -> ProviderToken {
        let store = try session()
        defer { store.close() }
        return try store.transaction {
            try store.run("SELECT set_config('idle_in_transaction_session_timeout', \(bind: Self.idleRenewalTimeout), true)")
            try store.run("SELECT set_config('lock_timeout', \(bind: Self.renewalLockTimeout), true)")
            // A row to lock for a key never seen: empty until this renewal writes it.
            try store.run(
                "INSERT INTO provider_tokens (cache_key, token, issued_at) VALUES (\(bind: cacheKey), '', 0) ON CONFLICT (cache_key) DO NOTHING"
            )
            let kept =
                try store.firstRow("SELECT token, issued_at FROM provider_tokens WHERE cache_key = \(bind: cacheKey) FOR UPDATE")
            {
                Self.token($0)
            } ?? nil
            let token = try renew(kept)
            try store.run(
                """
                UPDATE provider_tokens SET token = \(bind: token.jwt), issued_at = \(bind: token.issuedAt)
                WHERE cache_key = \(bind: cacheKey)
                """)
            return token
        }
    }

    /// A kept token, nil for the empty row a renewal that never finished left.
    private static func token(_ row: PostgresRow) -> ProviderToken? {
        guard let jwt = row.text(0), !jwt.isEmpty else { return nil }
        return ProviderToken(jwt: jwt, issuedAt: row.int(1))
    }
}
