import LiveActivityDomain
import LiveActivityStore

/// The apps a sweep sends for (SPEC 6 "Several apps"): how each app's pushes go out (its bundle
/// id and who signs them), and one provider token cache per signing identity, shared by the apps
/// of that key (one token per team and key, kept where the engine keeps tokens, by its cache key).
public final class SweepApps {
    /// Each app's route; the default app's is always there.
    public let routes: [AppName: AppRoute]
    private let caches: [SigningIdentity: ProviderTokenCache]

    /// `tokens` holds a cache for every identity of `routes`.
    public init(routes: [AppName: AppRoute], tokens: [SigningIdentity: ProviderTokenCache]) {
        precondition(routes[.defaultApp] != nil, "the default app is always served")
        precondition(routes.values.allSatisfy { tokens[$0.identity] != nil }, "a token cache for every identity")
        self.routes = routes
        caches = tokens
    }

    /// Each app's route from its credentials, and a token cache per identity over `store`, which
    /// signs with the key of the first app (in `AppName` order) of that identity.
    public convenience init(_ credentials: [AppName: SweepCredentials], store: any ProviderTokenStore) {
        var caches: [SigningIdentity: ProviderTokenCache] = [:]
        for app in credentials.keys.sorted() {
            guard let own = credentials[app], caches[own.identity] == nil else { continue }
            caches[own.identity] = ProviderTokenCache(store: store, cacheKey: own.tokenCacheKey) { seconds in
                try own.issueToken(at: seconds)
            }
        }
        self.init(routes: credentials.mapValues(\.route), tokens: caches)
    }

    /// Every identity that signs, the default app's first, then by the first app of each.
    public var identities: [SigningIdentity] {
        var identities: [SigningIdentity] = []
        for app in routes.keys.sorted() {
            guard let identity = routes[app]?.identity, !identities.contains(identity) else { continue }
            identities.append(identity)
        }
        return identities
    }

    /// The token cache of `identity`, one of `identities`.
    public func tokens(for identity: SigningIdentity) -> ProviderTokenCache {
        guard let cache = caches[identity] else { preconditionFailure("no token cache for \(identity)") }
        return cache
    }
}
