import LiveActivityDomain
import LiveActivityStore
import LiveActivitySweep
import SystemSupport

/// One cron run (SPEC section 5): the APNs settings, the lock, the database, the sweep, its
/// summary line on stdout and one line per fault on stderr.
enum SweepCommand {
    static func run(_ settings: Settings, _ configuration: Configuration) throws(CommandFailure) {
        let client: APNsClientSettings
        let credentials: [AppName: SweepCredentials]
        let budget: SweepBudget
        do {
            client = try APNsClientSettings(settings: settings)
            budget = try SweepBudget(settings: settings)
            // Every app's, checked before anything is sent (SPEC 6 "Several apps").
            credentials = try SweepCredentials.ofEveryApp(settings)
        } catch {
            throw .configuration(error.description)
        }
        // A lease that ends before the sweep does would let another host push what this one is
        // still sending (SPEC 5, "Several hosts").
        guard configuration.leaseSeconds > budget.seconds + SweepBudget.drainSeconds else {
            throw .configuration(
                "configuration: LIVEACTIVITY_LEASE_SECONDS (\(configuration.leaseSeconds)) must be longer than "
                    + "LIVEACTIVITY_SWEEP_BUDGET plus \(SweepBudget.drainSeconds) s (\(budget.seconds + SweepBudget.drainSeconds))"
            )
        }
        let engine = try engine(configuration)
        guard let folderPath = configuration.sweepDirectory ?? engine.defaultSweepFolder else {
            throw .configuration(
                "configuration: LIVEACTIVITY_SWEEP_DIR is not set: on PostgreSQL the sweep's private folder on this host "
                    + "(its lock) must be named, a folder no other user can write into (the package's settings name one)")
        }
        // The lock and the token live where the web user cannot reach (SPEC 7); a folder or lock
        // that is not this user's own is a fault, never "another sweep is running".
        let folder: SweepFolder
        let lock: SweepLock
        do {
            folder = try SweepFolder(path: folderPath)
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
        let store = try openDatabase(engine) { try engine.openSweep(migrating: true) }
        defer { store.close() }
        // This host's lock says no earlier sweep of this host still runs; the database's lock on
        // the name says no other host runs under it, so the leases stamped with the name are this
        // sweep's to take again (SPEC 5, "Several hosts"). Held by the sweep's session to its end.
        // One host's database (SQLite) has no such lock: the sweep's lock beside it suffices.
        let claim: HostNameClaim
        do { claim = try (store as? any SharedDatabase)?.holdHostName(configuration.hostName) ?? .held } catch {
            throw CommandFailure.database(error, doing: "sweep", engine)
        }
        switch claim {
        case .held: break
        case .inUseBySweep:
            throw .configuration(
                "configuration: LIVEACTIVITY_HOST_NAME=\(configuration.hostName) is in use by a sweep of another host "
                    + "against this database (it holds the name's lock there); give each host a name of its own")
        case .heldByAnotherRole(let role):
            throw .fault(
                "the lock on LIVEACTIVITY_HOST_NAME=\(configuration.hostName) in the database is held by a session of role "
                    + "\(OutsideText.quoted(role)), not a sweep: no push goes out until it lets go; let no other role "
                    + "connect to the database (REVOKE CONNECT ... FROM PUBLIC, docs/POSTGRESQL.md)")
        }
        let summary: SweepSummary
        do {
            let apps = SweepApps(credentials, store: engine.providerTokens(sweepFolder: folder.path))
            let sweep = Sweep(
                configuration: configuration, engine: engine, store: store, sender: CurlPushSender(settings: client),
                apps: apps, budget: budget,
                clock: configuration.clock.movedToDatabase(of: store),
                settingsFingerprint: SweepCredentials.settingsFingerprint(of: credentials, host: client.connectTo),
                folder: folder,
                stopRequested: { StopRequest.isRequested }, log: printError)
            summary = try sweep.run()
        } catch let refusal as ClockStepRefusal {
            throw .fault(refusal.description)
        } catch let unloadable as SharedLibraryError {
            // Something was due but libcurl or libcrypto is missing: nothing was claimed or sent.
            throw .fault("\(unloadable); nothing was sent (install Debian's libcurl4 and libssl3)")
        } catch let key as ConfigurationError {
            // libcrypto refused the key when it first signed with it.
            throw .configuration(key.description)
        } catch {
            throw CommandFailure.database(error, doing: "sweep", engine)
        }
        printResult(summary.line)
        withExtendedLifetime(lock) {}
        for fault in summary.faults { printError(fault.line) }
        if summary.failsTheRun { throw .fault(nil) }
    }
}
