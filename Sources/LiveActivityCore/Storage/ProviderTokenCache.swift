/// The APNs provider token (JWT) kept in the database, so that each cron run - a new process -
/// reuses it instead of signing a new one (SPEC section 5). APNs answers 429
/// TooManyProviderTokenUpdates to a provider that refreshes more often than every 20 minutes and
/// 403 ExpiredProviderToken to a token older than an hour; renewing at 50 minutes sits between.
public final class ProviderTokenCache {
    /// Age at which a cached token is replaced.
    public static let renewAfterMilliseconds: Int64 = 50 * 60_000

    private let connection: SQLiteConnection
    /// Hash of key id, team id and key: fixing any of them gets a fresh token at once.
    private let cacheKey: String
    /// Signs a new token issued at the given Unix second.
    private let issue: (Int64) throws -> String

    public init(connection: SQLiteConnection, cacheKey: String, issue: @escaping (Int64) throws -> String) {
        self.connection = connection
        self.cacheKey = cacheKey
        self.issue = issue
    }

    /// The cached token while it is younger than 50 minutes, else a new one.
    public func current(now: Int64) throws -> String {
        if let (token, issuedAt) = try cached(), now - issuedAt < Self.renewAfterMilliseconds,
            issuedAt <= now + 60_000  // a token from the future means the clock went back: renew
        {
            return token
        }
        return try renew(now: now)
    }

    /// Signs and stores a new token now (after ExpiredProviderToken, or when the cached one aged).
    @discardableResult
    public func renew(now: Int64) throws -> String {
        let seconds = now / 1000
        let token = try issue(seconds)
        try connection.transaction {
            try connection.statement(
                "INSERT OR REPLACE INTO provider_tokens (cache_key, token, issued_at) VALUES (?, ?, ?)"
            ).run([.text(cacheKey), .text(token), .integer(seconds * 1000)])
            // Tokens of other keys are stale once the operator changed the settings.
            try connection.statement("DELETE FROM provider_tokens WHERE cache_key <> ?").run([.text(cacheKey)])
        }
        return token
    }

    private func cached() throws -> (String, Int64)? {
        try connection.statement("SELECT token, issued_at FROM provider_tokens WHERE cache_key = ?")
            .firstRow([.text(cacheKey)]) { row in row.text(0).map { ($0, row.int(1)) } } ?? nil
    }
}
