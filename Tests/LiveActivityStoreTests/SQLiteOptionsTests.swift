import LiveActivityDomain
import LiveActivityStore
import TestSupport
import Testing

@testable import SQLiteClient
@testable import SQLiteStore

/// The SQLite settings of `Configuration` as every connection of the engine applies them, and
/// what every connection refuses of a file another user can write (SPEC 7).
@Suite struct SQLiteOptionsTests {
    @Test func theDatabaseSizeCeilingReachesEveryConnection() throws {
        #expect(SQLiteEngine(configuration: try Configuration(environment: [:])).options.maxPageCount == nil)
        let configuration = try Configuration(environment: ["LIVEACTIVITY_SQLITE_MAX_PAGES": "64"])
        let engine = SQLiteEngine(configuration: configuration)
        #expect(engine.options.maxPageCount == 64)
        let folder = TemporaryDirectory("config")
        let connection = try SQLiteConnection(path: folder.file("db.sqlite"), options: engine.options)
        #expect(try connection.statement("PRAGMA max_page_count").scalarInt() == 64)
    }

    /// Issue 26 point 6: the file is shared with the web user, so what it holds is untrusted.
    /// Defensive mode refuses the writes that corrupt a database on purpose, and an untrusted
    /// schema cannot run our SQL functions (a trigger planted in the file could otherwise call
    /// `liveactivity_attempts_prepend` on every row it likes).
    @Test func everyConnectionIsDefensiveAndTrustsNoSchema() throws {
        let folder = TemporaryDirectory("defensive")
        let connection = try SQLiteConnection(path: folder.file("db.sqlite"))
        #expect(try connection.statement("PRAGMA trusted_schema").scalarInt() == 0)
        #expect(throws: SQLiteError.self) {
            try connection.execute("PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = ''")
        }
        let store = try SQLiteEngine(path: folder.file("db.sqlite")).openSweep(migrating: true)
        defer { store.close() }
        // A trigger a stranger planted that calls the sweep's SQL function is refused when it fires.
        try connection.execute(
            """
            CREATE TRIGGER planted AFTER UPDATE ON push_targets
            BEGIN UPDATE push_targets SET attempts = liveactivity_attempts_prepend(x'00', attempts); END
            """)
        try connection.execute(
            "INSERT INTO push_targets (registration_token, push_kind, push_token, activity_type, environment, registered_at, expires_at, next_push_at) VALUES ('\(sampleToken(1))', 'wake', '\(sampleToken(1))', 'charging', 'production', 1, 2, 1)"
        )
        #expect(throws: (any Error).self) {
            try store.write(
                [
                    OutcomeRow(
                        key: .wake(PushToken(trusted: sampleToken(1))), selectedRegisteredAt: 1,
                        change: .delivered(at: 5, nextPushAt: 6))
                ])
        }
    }
}
