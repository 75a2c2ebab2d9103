import LiveActivityDomain
import LiveActivityStore
import SQLiteClient

/// The embedded engine (SPEC 4): one SQLite file in WAL mode, shared by the responder (the web
/// user) and the sweep (the key's owner) through their group. `LIVEACTIVITY_DB` is its path.
public struct SQLiteEngine: StoreEngine {
    public let path: String
    public let options: SQLiteOptions

    public init(path: String, options: SQLiteOptions = SQLiteOptions()) {
        self.path = path
        self.options = options
    }

    /// The engine the settings ask for: `LIVEACTIVITY_DB`'s path and the SQLite settings.
    public init(configuration: Configuration) {
        var options = SQLiteOptions()
        options.busyTimeoutMilliseconds = configuration.busyTimeoutMilliseconds
        options.synchronous = configuration.sqliteSynchronous
        options.maxPageCount = configuration.sqliteMaxPages
        self.init(path: configuration.databasePath, options: options)
    }

    public var location: String { path }

    public var defaultSweepFolder: String? { path + ".sweep" }

    /// The responder's: its writer commits every queued registration at once, and a checkpoint
    /// inside such a commit (SQLite's auto-checkpoint, fsyncs included) held them all.
    public func openRegistrations() throws -> any RegistrationStatements {
        try SQLiteStoreConnection(path: path, options: options, migrating: true, checkpointingAside: true)
    }

    public func openSweep(migrating: Bool) throws -> any SweepStatements {
        try SQLiteStoreConnection(path: path, options: options, migrating: migrating)
    }

    /// The sweep's outcome writer: outcomes update rows all over the table (tokens are random),
    /// so with SQLite's default 2 MiB page cache each batch re-read the same interior pages once
    /// the table outgrew it. 4 MiB holds the B-tree levels above the leaves of a few hundred
    /// thousand registrations; 16 MiB was no faster at 100,000 and held 12 MB more.
    public func openOutcomeWriter() throws -> any SweepStatements {
        var options = options
        options.cacheKibibytes = 4096
        return try SQLiteStoreConnection(path: path, options: options, migrating: false)
    }

    public func openExisting() throws -> any SweepStatements {
        guard FileIdentity(path: path) != nil else {
            throw StoreFault(.cannotOpen, message: "no database at \(path)", advice: "check LIVEACTIVITY_DB")
        }
        return try SQLiteStoreConnection(path: path, options: options, migrating: true)
    }

    public func providerTokens(sweepFolder: String) -> any ProviderTokenStore {
        ProviderTokenFile(folder: sweepFolder)
    }
}
