import Foundation
import LiveActivityStore
import SQLiteClient
import SQLiteStore

/// A SQLite database for a test: a file in a folder of the test's own.
struct SQLiteTestFixture: TestEngineFixture {
    func create(label: String, in folder: TemporaryDirectory) throws -> TestDatabase.Parts {
        let path = folder.file("registrations.sqlite")
        return TestDatabase.Parts(setting: path, engine: SQLiteEngine(path: path), raw: RawSQLite(path: path))
    }

    func unusable(in folder: TemporaryDirectory) throws -> TestDatabase {
        TestDatabase(sqliteFile: folder.file("missing-folder/db.sqlite"))
    }

    func pretendNewerSchema(_ database: TestDatabase) throws { try database.execute("PRAGMA user_version = 9999") }

    func patientEngine(_ database: TestDatabase) -> any StoreEngine { waiting(60_000, on: database) }

    func impatientEngine(_ database: TestDatabase) -> any StoreEngine { waiting(100, on: database) }

    /// The engine with SQLite's busy timeout at `milliseconds`.
    private func waiting(_ milliseconds: Int32, on database: TestDatabase) -> any StoreEngine {
        var options = SQLiteOptions()
        options.busyTimeoutMilliseconds = milliseconds
        return SQLiteEngine(path: database.setting, options: options)
    }

    func refusingInserts(endingIn suffix: String, message: String) throws -> String {
        """
        CREATE TRIGGER poisoned BEFORE INSERT ON push_targets WHEN new.push_token LIKE '%\(suffix)'
        BEGIN SELECT RAISE(ABORT, '\(message)'); END;
        """
    }

    func refusingUpdates(of token: String) throws -> String {
        "CREATE TRIGGER refuse BEFORE UPDATE ON push_targets WHEN new.push_token = '\(token)' BEGIN SELECT RAISE(ABORT, 'refused'); END"
    }

    func holdWriteLock(_ database: TestDatabase) throws -> WriteLockHolder {
        let connection = try SQLiteConnection(path: database.setting)
        try connection.execute("BEGIN IMMEDIATE")
        return WriteLockHolder { try connection.execute("COMMIT") }
    }

    /// The file deleted (and its -wal, -shm), as an operator or a crash might.
    func breakOpenConnections(_ database: TestDatabase) throws {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database.setting + suffix) }
    }

    var attemptsAsText: String { "hex(attempts)" }

    /// `<db>.sweep` beside the file, the default.
    func sweepFolder(_ database: TestDatabase) -> String {
        database.engine.defaultSweepFolder ?? database.folder.file("sweep")
    }

    var isShared: Bool { false }
}

/// SQLite, raw: a connection of its own per call.
struct RawSQLite: RawDatabase {
    let path: String

    func execute(_ sql: String) throws { try SQLiteConnection(path: path).execute(sql) }

    func rows(_ sql: String) throws -> [[String?]] {
        let connection = try SQLiteConnection(path: path)
        return try connection.statement(sql).rows { row in (0..<row.columnCount).map { row.isNull($0) ? nil : row.text($0) } }
    }
}
