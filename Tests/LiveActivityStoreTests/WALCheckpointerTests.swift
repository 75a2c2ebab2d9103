import Foundation
import TestSupport
import Testing

@testable import SQLiteClient

/// A connection that hands its checkpoints to a `WALCheckpointer`: its commits copy nothing into
/// the database file until the WAL reaches the limit; the checkpointer's thread does the copying.
@Suite struct WALCheckpointerTests {
    let folder = TemporaryDirectory("checkpointer")
    var path: String { folder.file("db.sqlite") }

    /// The database file's size: pages reach it only through a checkpoint.
    func databaseBytes() throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }

    /// A connection with table `t` of page-sized rows, its checkpoints handed to `checkpointer`.
    func writer(_ checkpointer: WALCheckpointer) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path)
        connection.checkpoint(in: checkpointer)
        try connection.execute("CREATE TABLE t (b BLOB NOT NULL)")
        return connection
    }

    /// One transaction of `rows` rows of about a page each.
    func insert(_ rows: Int, on connection: SQLiteConnection) throws {
        try connection.transaction {
            for _ in 0..<rows { try connection.statement("INSERT INTO t (b) VALUES (zeroblob(3000))").run() }
        }
    }

    @Test func aCommitPastTheThresholdLeavesTheCopyingToTheThread() throws {
        let checkpointer = WALCheckpointer(path: path, options: SQLiteOptions(), threshold: 20, limit: 10_000)
        let connection = try writer(checkpointer)
        defer { connection.close() }
        let before = try databaseBytes()
        try checkpointer.holdingCheckpoints {
            try insert(60, on: connection)
            #expect(try databaseBytes() == before, "the commit copied nothing into the database")
            #expect(checkpointer.completedCheckpoints == 0)
        }
        #expect(waitUntil(timeout: 30) { checkpointer.completedCheckpoints >= 1 })
        #expect(try databaseBytes() >= before + 60 * 3000, "the thread copied the committed pages")
        #expect(try connection.statement("SELECT count(*) FROM t").scalarInt() == 60)
    }

    @Test func aCommitPastTheLimitCheckpointsItselfSoTheWALStaysBounded() throws {
        let checkpointer = WALCheckpointer(path: path, options: SQLiteOptions(), threshold: 20, limit: 50)
        let connection = try writer(checkpointer)
        defer { connection.close() }
        let before = try databaseBytes()
        try checkpointer.holdingCheckpoints {
            try insert(60, on: connection)
            #expect(try databaseBytes() >= before + 60 * 3000, "the commit copied its pages itself")
            #expect(checkpointer.completedCheckpoints == 0)
        }
    }

    @Test func belowTheThresholdACommitAsksNothing() {
        let checkpointer = WALCheckpointer(path: path, options: SQLiteOptions(), threshold: 20, limit: 50)
        #expect(checkpointer.afterCommit(leaving: 19) == .nothing)
        #expect(checkpointer.afterCommit(leaving: 20) == .request)
        #expect(checkpointer.afterCommit(leaving: 49) == .request)
        #expect(checkpointer.afterCommit(leaving: 50) == .checkpoint)
    }

    @Test func closingEndsTheThreadFirstSoTheLastCloseRemovesTheWAL() throws {
        let checkpointer = WALCheckpointer(path: path, options: SQLiteOptions(), threshold: 20, limit: 10_000)
        let connection = try writer(checkpointer)
        try insert(60, on: connection)
        #expect(waitUntil(timeout: 30) { checkpointer.completedCheckpoints >= 1 })
        connection.close()
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(try SQLiteConnection(path: path).statement("SELECT count(*) FROM t").scalarInt() == 60)
    }
}
