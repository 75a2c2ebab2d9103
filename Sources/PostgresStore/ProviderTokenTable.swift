import LiveActivityDomain
import LiveActivityStore
import PostgresClient

/// The provider token on PostgreSQL (SPEC 5): one row every host's sweep shares, in a table the
/// responder's role is never granted. A renewal holds the row's lock (an advisory lock while
/// there is no row yet) from its read to its write, so two hosts never both sign a new token:
/// the second finds the first one's and uses it, and APNs never answers
/// TooManyProviderTokenUpdates for hosts added. A session of its own per call (a sweep asks once
/// or twice a run).
struct ProviderTokenTable: ProviderTokenStore {
    let conninfo: PostgresConninfo

    /// The advisory lock key renewals take: `apnstokn` in ASCII.
    static let renewalLock: Int64 = 0x6170_6E73_746F_6B6E

    private func session() throws -> PostgresStoreConnection {
        try PostgresStoreConnection(conninfo, program: "liveactivity-sweep token", migrating: true)
    }

    func load(cacheKey: String) throws -> ProviderToken? {
        let store = try session()
        defer { store.close() }
        return try store.storeFaults { try Self.kept(cacheKey, on: store) }
    }

    func renew(cacheKey: String, _ renew: (ProviderToken?) throws -> ProviderToken) throws -> ProviderToken {
        let store = try session()
        defer { store.close() }
        return try store.transaction {
            _ = try store.statement("SELECT pg_advisory_xact_lock($1)").run([.integer(Self.renewalLock)])
            let token = try renew(try Self.kept(cacheKey, on: store))
            try store.statement(
                """
                INSERT INTO provider_token (id, cache_key, token, issued_at) VALUES (1, $1, $2, $3)
                ON CONFLICT (id) DO UPDATE SET cache_key = excluded.cache_key, token = excluded.token, issued_at = excluded.issued_at
                """
            ).run([.text(cacheKey), .text(token.jwt), .integer(token.issuedAt)])
            return token
        }
    }

    /// The kept token when it was signed for `cacheKey` (key id, team and key).
    private static func kept(_ cacheKey: String, on store: PostgresStoreConnection) throws(PostgresError) -> ProviderToken? {
        try store.statement("SELECT cache_key, token, issued_at FROM provider_token WHERE id = 1").firstRow { row in
            row.text(0) == cacheKey ? ProviderToken(jwt: row.text(1) ?? "", issuedAt: row.int(2)) : nil
        } ?? nil
    }
}
