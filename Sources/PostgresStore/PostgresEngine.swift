import LiveActivityDomain
import LiveActivityStore
import PostgresClient

/// The engine where one host is not enough (SPEC 4): one PostgreSQL database that every host's
/// responder and sweep share, reached through libpq. `LIVEACTIVITY_DB` is a `postgresql://` or
/// `postgres://` URI in libpq's syntax, several hosts with `target_session_attrs=read-write`
/// included (a promoted standby is found by the next connection, without a restart).
public struct PostgresEngine: StoreEngine {
    let conninfo: PostgresConninfo

    /// How long opening a connection may take (every host of the URI, each in turn).
    static let connectTimeout: Duration = .seconds(5)
    /// How long one statement may wait for its answer before the connection counts as lost.
    static let callTimeout: Duration = .seconds(20)

    /// Checks `uri` (one line naming `LIVEACTIVITY_DB`, never its password, when libpq cannot read it).
    public init(uri: String) throws(ConfigurationError) {
        do {
            conninfo = try PostgresConninfo(uri)
        } catch {
            throw .malformed(name: "LIVEACTIVITY_DB", expected: "a PostgreSQL URI libpq reads (\(error.message))")
        }
    }

    /// Whether `value` names a PostgreSQL database rather than a SQLite file.
    public static func names(_ value: String) -> Bool {
        value.hasPrefix("postgresql://") || value.hasPrefix("postgres://")
    }

    /// The URI without its password.
    public var location: String { conninfo.redacted }

    public var defaultSweepFolder: String { "./var/liveactivity.sweep" }

    public func openRegistrations() throws -> any RegistrationStatements {
        try PostgresStoreConnection(conninfo, program: "liveactivity-fcgi", migrating: true)
    }

    public func openSweep(migrating: Bool) throws -> any SweepStatements {
        try PostgresStoreConnection(conninfo, program: "liveactivity-sweep", migrating: migrating)
    }

    public func openOutcomeWriter() throws -> any SweepStatements {
        try PostgresStoreConnection(conninfo, program: "liveactivity-sweep outcomes", migrating: false)
    }

    public func openExisting() throws -> any SweepStatements {
        try PostgresStoreConnection(conninfo, program: "liveactivity-sweep", migrating: true)
    }

    /// The token in the database, where every host's sweep finds it; `sweepFolder` is not used.
    public func providerTokens(sweepFolder: String) -> any ProviderTokenStore {
        ProviderTokenTable(conninfo: conninfo)
    }
}
