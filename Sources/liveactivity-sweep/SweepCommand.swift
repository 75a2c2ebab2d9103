import LiveActivityDomain
import LiveActivityStore
import LiveActivitySweep

/// One cron run (SPEC section 5): the APNs settings, the lock, the database, the sweep, its
/// summary line on stdout and one line per fault on stderr.
enum SweepCommand {
    static func run(_ settings: Settings, _ configuration: Configuration) throws(CommandFailure) {
        let client: APNsClientSettings
        let credentials: SweepCredentials
        let budget: SweepBudget
        do {
            client = try APNsClientSettings(settings: settings)
            budget = try SweepBudget(settings: settings)
            credentials = try SweepCredentials(settings: settings)
        } catch {
            throw .configuration(error.description)
        }
        let lock: SweepLock
        do {
            guard let taken = try SweepLock(databasePath: configuration.databasePath) else {
                printResult("another sweep is running (lock held); nothing to do")
                return
            }
            lock = taken
        } catch {
            throw .database(error.description)
        }
        let store = try openDatabase(configuration)
        let summary: SweepSummary
        do {
            let tokens = ProviderTokenCache(
                path: ProviderTokenCache.path(forDatabase: configuration.databasePath), cacheKey: credentials.tokenCacheKey
            ) { seconds in
                try credentials.issueToken(at: seconds)
            }
            let sweep = Sweep(
                configuration: configuration, store: store,
                sender: CurlPushSender(settings: client, topic: credentials.bundleID), tokens: tokens, budget: budget,
                stopRequested: { StopRequest.isRequested }, log: printError)
            summary = try sweep.run()
        } catch {
            throw .database(DatabaseFault(error).map { "database error: \($0.detail)" } ?? "\(error)")
        }
        printResult(summary.line)
        withExtendedLifetime(lock) {}
        for fault in summary.faults { printError(fault.line) }
        if summary.failsTheRun { throw .fault(nil) }
    }
}
