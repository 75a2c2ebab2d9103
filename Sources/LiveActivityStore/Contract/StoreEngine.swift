import LiveActivityDomain

/// One database, as the programs reach it whatever the engine (SPEC 4, "Two engines, one
/// contract"): SQLite for a file path, PostgreSQL for a `postgresql://` URI (`StoreEngines`
/// chooses). Everything above speaks these protocols and domain values; only the statements
/// behind them differ between engines.
public protocol StoreEngine: Sendable {
    /// `LIVEACTIVITY_DB` as a log line may show it: never a password.
    var location: String { get }

    /// A connection for the responder: registrations, unregistrations and acks in the group
    /// commit, and the figures. It migrates the schema the first time it opens.
    func openRegistrations() throws -> any RegistrationStatements

    /// A connection for a sweep; `migrating`: brings the schema up to date first (the one
    /// migration of a run, on the connection a run opens first).
    func openSweep(migrating: Bool) throws -> any SweepStatements

    /// The sweep's outcome writer's connection (to a database the sweep already migrated), which
    /// updates rows all over the table.
    func openOutcomeWriter() throws -> any SweepStatements

    /// A connection for the operator's commands (`stats`, `history`): like a sweep's, but it
    /// never creates a database that is not there (a mistyped path is a fault, not a new file).
    func openExisting() throws -> any SweepStatements

    /// The sweep's own folder on this host when `LIVEACTIVITY_SWEEP_DIR` names none: `<db>.sweep`
    /// beside a SQLite file; none for PostgreSQL, where the setting is required (a relative
    /// default failed every sweep under systemd and cron, whose working folder is `/`).
    var defaultSweepFolder: String? { get }

    /// Where the sweep keeps the APNs provider token: a file in the sweep's own folder on SQLite
    /// (the web user shares the database file), a table only the sweep's role reads on PostgreSQL
    /// (shared by every host, renewed by one at a time).
    func providerTokens(sweepFolder: String) -> any ProviderTokenStore
}

/// What every connection does, whatever it is for.
public protocol StoreConnection: AnyObject {
    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws
    /// (its error rethrown as it is; the engine's own failures as `StoreFault`).
    func transaction<T>(_ body: () throws -> T) throws -> T

    /// Why the connection can no longer be used as it is (its file was deleted or replaced, the
    /// server went away), nil while it can: the owner closes it and opens another. Cheap enough
    /// for every request.
    var staleness: Staleness? { get }

    /// Closes the connection now (its statements finalized, its file or socket released).
    func close()
}

/// Why a connection can no longer be used as it is, for the one line its owner logs.
public struct Staleness: Sendable, Equatable {
    /// The same for every connection gone stale for the same reason (one line per key).
    public var key: String
    /// What happened and what the owner does, for the operator.
    public var line: String

    public init(key: String, line: String) {
        self.key = key
        self.line = line
    }
}
