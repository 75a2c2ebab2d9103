import LiveActivityDomain

/// Where the sweep keeps the APNs provider token across runs (SPEC 5, "APNs provider token"): a
/// credential, so only the sweep may read it. When to renew is `ProviderToken`'s rule; a store
/// only keeps it and lets one renewer at a time in.
public protocol ProviderTokenStore {
    /// The kept token for `cacheKey` (key id, team and key), if one is kept and trusted.
    func load(cacheKey: String) throws -> ProviderToken?

    /// Runs `renew` with the token kept at that moment, holding the store's renewal lock (on
    /// PostgreSQL a row lock every host's sweep waits on, so two hosts never both sign a new one
    /// and make APNs answer TooManyProviderTokenUpdates), and keeps what it returns.
    func renew(cacheKey: String, _ renew: (ProviderToken?) throws -> ProviderToken) throws -> ProviderToken
}
