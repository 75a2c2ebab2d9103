import LiveActivityDomain
import LiveActivityStore
import LiveActivitySweep

/// A sweep run in the test's own process against the stand-in, over the real libcurl sender:
/// what `liveactivity-sweep` does with `sweepEnvironment(database:)` plus `extra`, but with the due
/// page and the sender's lookahead made small (the command reads 1,000 and keeps 1,000 queued), so
/// that a fault can stop an environment before most of its rows were read.
extension StandInStack {
    public func sweepInProcess(
        database: TestDatabase, extra: [String: String] = [:], duePageSize: Int, lookahead: Int,
        log: @escaping (String) -> Void = { _ in }
    ) throws -> SweepSummary {
        var environment = sweepEnvironment(database: database.setting)
        environment.merge(database.programEnvironment) { _, new in new }
        environment.merge(extra) { _, new in new }
        let settings = Settings(values: environment)
        var configuration = try Configuration(settings: settings)
        try configuration.readPushIntervals(settings)
        try configuration.readSweepSettings(settings)
        try configuration.readApps(settings)
        let credentials = try SweepCredentials.ofEveryApp(settings)
        let store = try database.engine.openSweep(migrating: true)
        defer { store.close() }
        let folder = try SweepFolder(path: configuration.sweepDirectory ?? database.sweepFolder)
        let apps = SweepApps(credentials, store: database.engine.providerTokens(sweepFolder: folder.path))
        let sender = CurlPushSender(settings: try APNsClientSettings(settings: settings))
        return try Sweep(
            configuration: configuration, engine: database.engine, store: store, sender: sender, apps: apps,
            clock: configuration.clock.movedToDatabase(of: store),
            duePageSize: duePageSize, lookahead: lookahead, log: log
        ).run()
    }
}
