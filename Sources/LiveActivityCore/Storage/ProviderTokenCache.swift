/// The APNs provider token (JWT) kept in the database, so that each cron run - a new process -
/// reuses it instead of signing a new one (SPEC section 5). When to renew is the token's own rule
/// (`ProviderToken.needsRenewal`); this type only keeps and signs.
public final class ProviderTokenCache {
    private let connection: SQLiteConnection
    /// Hash of key id, team id and key: fixing any of them gets a fresh token at once.
    private let cacheKey: String
    /// Signs a new token issued at the given Unix second.
    private let issue: (Int64) throws -> ProviderToken

    public init(connection: SQLiteConnection, cacheKey: String, issue: @escaping (Int64) throws -> ProviderToken) {
        self.connection = connection
        self.cacheKey = cacheKey
        self.issue = issue
    }

    /// The cached token unless it needs renewal at `now` (Unix milliseconds), else a new one.
    public func current(now: Int64) throws -> ProviderToken {
        if let cached = try cached(), !cached.needsRenewal(atMilliseconds: now) {
            return cached
        }
        return try renew(now: now)
    }

    /// Signs and stores a new token now (after ExpiredProviderToken, or when the cached one aged).
    @discardableResult
    public func renew(now: Int64) throws -> ProviderToken {
        let token = try issue(now / 1000)
        try connection.transaction {
            try connection.statement(
                "INSERT OR REPLACE INTO provider_tokens (cache_key, token, issued_at) VALUES (?, ?, ?)"
            ).run([.text(cacheKey), .text(token.jwt), .integer(token.issuedAt * 1000)])
            // Tokens of other keys are stale once the operator changed the settings.
            try connection.statement("DELETE FROM provider_tokens WHERE cache_key <> ?").run([.text(cacheKey)])
        }
        return token
    }

    /// The stored token (its `issued_at` column is in milliseconds, whole seconds).
    private func cached() throws -> ProviderToken? {
        try connection.statement("SELECT token, issued_at FROM provider_tokens WHERE cache_key = ?")
            .firstRow([.text(cacheKey)]) { row in row.text(0).map { ProviderToken(jwt: $0, issuedAt: row.int(1) / 1000) } }
            ?? nil
    }
}
