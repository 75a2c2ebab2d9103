import LiveActivityDomain
import LiveActivityStore
import PostgresStore
import SQLiteStore

/// The engine `LIVEACTIVITY_DB` names (SPEC 4, 6): a `postgresql://` or `postgres://` URI is
/// PostgreSQL, a path the SQLite file, and a connection string of another scheme or form an error. The one place that knows every engine: a third is one
/// target more and one line here, and nothing above the contract changes.
public enum StoreEngines {
    public static func engine(for configuration: Configuration) throws(ConfigurationError) -> any StoreEngine {
        let value = configuration.databasePath
        if PostgresEngine.names(value) { return try PostgresEngine(uri: value) }
        // A URI of any other scheme (`postgresq://`, `pg://`, `POSTGRESQL://`) is a mistake, not
        // a file name: taken as a path it was printed whole, password and all. Named, never echoed.
        if let scheme = value.firstRange(of: "://").map({ value[..<$0.lowerBound] }) {
            let shown =
                scheme.allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." } ? "\(scheme)://" : "its"
            throw .malformed(
                name: "LIVEACTIVITY_DB",
                expected: "a SQLite file's path, or a URI beginning postgresql:// or postgres:// in lower case; "
                    + "\(shown.prefix(40)) scheme is neither (the value is not shown: it may hold a password)")
        }
        // Nor is a connection string in another form (libpq's `key=value`, the scheme without
        // `//`): taken as a path it was printed whole, and the responder made SQLite files named
        // with it, password and all.
        if let form = PostgresEngine.otherForm(value) {
            throw .malformed(
                name: "LIVEACTIVITY_DB",
                expected: "a SQLite file's path, or a URI beginning postgresql:// or postgres://; this is \(form) "
                    + "(the value is not shown: it may hold a password)")
        }
        return SQLiteEngine(configuration: configuration)
    }
}
