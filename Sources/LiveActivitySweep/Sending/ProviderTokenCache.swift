import LiveActivityDomain
import LiveActivityStore

/// The APNs provider token (JWT) kept across cron runs, so that each run - a new process - reuses
/// it instead of signing a new one (SPEC section 5). When to renew is the token's own rule
/// (`ProviderToken.needsRenewal`); where it is kept is the engine's (`ProviderTokenStore`: a file
/// in the sweep's folder on SQLite, a table on PostgreSQL shared by every host); this type signs
/// when, and only when, the kept token will not do.
public final class ProviderTokenCache {
    private let store: any ProviderTokenStore
    /// Hash of key id, team id and key: fixing any of them gets a fresh token at once.
    private let cacheKey: String
    /// Signs a new token issued at the given Unix second.
    private let issue: (Int64) throws -> ProviderToken

    public init(store: any ProviderTokenStore, cacheKey: String, issue: @escaping (Int64) throws -> ProviderToken) {
        self.store = store
        self.cacheKey = cacheKey
        self.issue = issue
    }

    /// The kept token unless it needs renewal at `now` (Unix milliseconds), else a new one. Under
    /// the store's lock the kept token is looked at again: another host may have just renewed it.
    public func current(now: Int64) throws -> ProviderToken {
        if let kept = try store.load(cacheKey: cacheKey), !kept.needsRenewal(atMilliseconds: now) { return kept }
        return try store.renew(cacheKey: cacheKey) { kept in
            if let kept, !kept.needsRenewal(atMilliseconds: now) { return kept }
            return try issue(now / 1000)
        }
    }

    /// A new token in place of `refused` (APNs answered ExpiredProviderToken to it), unless
    /// another host has already put a newer one in its place: two hosts renewing at once would
    /// make APNs answer TooManyProviderTokenUpdates.
    @discardableResult
    public func renew(replacing refused: ProviderToken, now: Int64) throws -> ProviderToken {
        try store.renew(cacheKey: cacheKey) { kept in
            if let kept, kept != refused, !kept.needsRenewal(atMilliseconds: now) { return kept }
            return try issue(now / 1000)
        }
    }
}
