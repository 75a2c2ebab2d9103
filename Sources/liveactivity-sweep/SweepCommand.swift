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
        // The lock and the token live where the web user cannot reach (SPEC 7); a folder or lock
        // that is not this user's own is a fault, never "another sweep is running".
        let folder: SweepFolder
        let lock: SweepLock
        do {
            folder = try SweepFolder(databasePath: configuration.databasePath)
            guard let taken = try SweepLock(in: folder) else {
                printResult("another sweep is running (lock held); nothing to do")
                return
            }
            lock = taken
        } catch let fault as SweepFolder.Fault {
            throw fault.isForeign ? .fault(fault.description) : .database(fault.description)
        } catch let fault as SweepLock.Fault {
            throw .fault(fault.description)
        } catch {
            throw .fault("\(error)")
        }
        SweepFolder.removeOldFiles(forDatabase: configuration.databasePath)
        let store = try openDatabase(configuration)
        let summary: SweepSummary
        do {
            let tokens = ProviderTokenCache(
                path: ProviderTokenCache.path(in: folder), cacheKey: credentials.tokenCacheKey
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
