import LiveActivityDomain
import LiveActivityStore
import LiveActivitySweep

/// A sweep run in the test's own process against the stand-in, over the real libcurl sender:
/// what `liveactivity-sweep` does with `sweepEnvironment(database:)` plus `extra`, but with the due
/// page and the sender's lookahead made small (the command reads 1,000 and keeps 4,000 queued), so
/// that a fault can stop an environment before most of its rows were read.
extension StandInStack {
    public func sweepInProcess(
        database: String, extra: [String: String] = [:], duePageSize: Int, lookahead: Int,
        log: @escaping (String) -> Void = { _ in }
    ) throws -> SweepSummary {
        var environment = sweepEnvironment(database: database)
        environment.merge(extra) { _, new in new }
        let settings = Settings(values: environment)
        var configuration = try Configuration(settings: settings)
        try configuration.readPushIntervals(settings)
        let credentials = try SweepCredentials(settings: settings)
        let store = try SweepStore(path: database, options: configuration.sqliteOptions, migrating: true)
        let tokens = ProviderTokenCache(
            path: ProviderTokenCache.path(in: try SweepFolder(databasePath: database)), cacheKey: credentials.tokenCacheKey
        ) { seconds in
            try credentials.issueToken(at: seconds)
        }
        let sender = CurlPushSender(settings: try APNsClientSettings(settings: settings), topic: credentials.bundleID)
        return try Sweep(
            configuration: configuration, store: store, sender: sender, tokens: tokens,
            duePageSize: duePageSize, lookahead: lookahead, log: log
        ).run()
    }
}
