import Foundation
import SQLiteClient
import TestSupport
import Testing

/// `close()` ends the connection at a known point, not whenever the last reference goes.
@Suite struct ConnectionCloseTests {
    let folder = TemporaryDirectory("close")

    @Test func closeCheckpointsAndLaterUseIsAnError() throws {
        let path = folder.file("db.sqlite")
        let connection = try SQLiteConnection(path: path)
        try connection.execute("CREATE TABLE t (n INTEGER)")
        try connection.statement("INSERT INTO t (n) VALUES (1)").run()
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        connection.close()
        // The last connection to close checkpoints the WAL and removes it.
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(connection.isClosed)
        #expect(throws: SQLiteError.self) { try connection.statement("SELECT n FROM t") }
        #expect(throws: SQLiteError.self) { try connection.execute("SELECT 1") }
        connection.close()
        #expect(try SQLiteConnection(path: path).statement("SELECT n FROM t").scalarInt() == 1)
    }
}
