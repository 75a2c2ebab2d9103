import LiveActivityDomain
import LiveActivityStore
import TestSupport
import Testing

/// The SQLite settings of `Configuration` as every connection applies them.
@Suite struct SQLiteOptionsTests {
    @Test func theDatabaseSizeCeilingReachesEveryConnection() throws {
        #expect(try Configuration(environment: [:]).sqliteOptions.maxPageCount == nil)
        let configuration = try Configuration(environment: ["LIVEACTIVITY_SQLITE_MAX_PAGES": "64"])
        #expect(configuration.sqliteOptions.maxPageCount == 64)
        let folder = TemporaryDirectory("config")
        let connection = try SQLiteConnection(path: folder.file("db.sqlite"), options: configuration.sqliteOptions)
        #expect(try connection.statement("PRAGMA max_page_count").scalarInt() == 64)
    }
}
