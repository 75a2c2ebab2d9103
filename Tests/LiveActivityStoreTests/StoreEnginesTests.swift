import LiveActivityDomain
import LiveActivityStore
import SQLiteStore
import StoreEngines
import Testing

/// Which engine `LIVEACTIVITY_DB` names (SPEC 4, 6), decided before anything is opened or
/// loaded. Issue 48 point 3: a PostgreSQL connection string in another form than a
/// `postgresql://` URI (libpq's `key=value`, or the scheme without `//`) was taken as a SQLite
/// file's path - printed whole, password and all, and made into files named with it.
@Suite("LIVEACTIVITY_DB's engine") struct StoreEnginesTests {
    static let secret = "hunter2-not-to-be-seen"

    func engine(_ value: String) throws(ConfigurationError) -> any StoreEngine {
        var configuration = Configuration()
        configuration.databasePath = value
        return try StoreEngines.engine(for: configuration)
    }

    @Test(arguments: [
        "host=db.example.org dbname=liveactivity password=\(secret)",
        "dbname = liveactivity password = \(secret)",
        "  user =sweep password=\(secret)",
        "password=\(secret) host=db.example.org",
        "HOST=db.example.org PASSWORD=\(secret)",
        "sslmode=verify-full\thost=db.example.org password=\(secret)",
        "service=liveactivity password=\(secret)",
        "target_session_attrs=read-write host=a,b password=\(secret)",
        "postgresql:sweep:\(secret)@db.example.org/liveactivity",
        "postgres:/liveactivity?password=\(secret)",
        "PostgreSQL:db.example.org?password=\(secret)",
    ])
    func aConnectionStringOfAnotherFormIsRefusedWithoutItsValue(_ value: String) {
        let error = #expect(throws: ConfigurationError.self) { try engine(value) }
        let said = error?.description ?? ""
        #expect(said.contains("LIVEACTIVITY_DB is malformed") && said.contains("postgresql://"), "\(said)")
        #expect(!said.contains(Self.secret), "the value was echoed: \(said)")
        #expect(!said.contains("\n"), "\(said)")
    }

    /// A path that merely holds such a word, or `=` further on, is still a path.
    @Test(arguments: [
        "./var/liveactivity.sqlite", "/var/lib/liveactivity/liveactivity.sqlite", "host", "hostname=x.sqlite",
        "./host=x.sqlite", "var/password=x/db.sqlite", "postgresql.sqlite", "./postgresql:x.sqlite",
    ])
    func aPathIsStillASQLiteFile(_ value: String) throws {
        #expect(try engine(value) is SQLiteEngine)
    }
}
