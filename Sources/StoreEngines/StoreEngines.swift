import LiveActivityDomain
import LiveActivityStore
import PostgresStore
import SQLiteStore

/// The engine `LIVEACTIVITY_DB` names (SPEC 4, 6): a `postgresql://` or `postgres://` URI is
/// PostgreSQL, anything else the path of a SQLite file. The one place that knows every engine:
/// a third is one target more and one line here, and nothing above the contract changes.
public enum StoreEngines {
    public static func engine(for configuration: Configuration) throws(ConfigurationError) -> any StoreEngine {
        if PostgresEngine.names(configuration.databasePath) { return try PostgresEngine(uri: configuration.databasePath) }
        return SQLiteEngine(configuration: configuration)
    }
}
