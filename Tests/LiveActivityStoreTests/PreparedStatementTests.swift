import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import SQLiteClient

/// The one way to read rows: bind, step and reset in one call, so no query is left open.
@Suite struct PreparedStatementTests {
    let folder = TemporaryDirectory("statement")
    let connection: SQLiteConnection

    init() throws {
        connection = try SQLiteConnection(path: folder.file("db.sqlite"))
        try connection.execute("CREATE TABLE t (n INTEGER NOT NULL, label TEXT)")
        for n in 1...5 {
            try connection.statement("INSERT INTO t (n, label) VALUES (?, ?)").run([
                .integer(Int64(n)), n == 3 ? .null : .text("n\(n)"),
            ])
        }
    }

    @Test func rowsReadsEveryRowInOrderWithTypedColumns() throws {
        let read = try connection.statement("SELECT n, label FROM t WHERE n >= ? ORDER BY n").rows([.integer(2)]) { row in
            "\(row.int(0)):\(row.text(1) ?? "nil"):\(row.isNull(1))"
        }
        #expect(read == ["2:n2:false", "3:nil:true", "4:n4:false", "5:n5:false"])
        #expect(try connection.statement("SELECT n FROM t WHERE n > ?").rows([.integer(9)]) { $0.int(0) }.isEmpty)
    }

    @Test func firstRowReadsOneRowOrNone() throws {
        let statement = try connection.statement("SELECT n, label FROM t WHERE n >= ? ORDER BY n")
        #expect(try statement.firstRow([.integer(3)]) { $0.optionalInt(0) } == 3)
        #expect(try statement.firstRow([.integer(3)]) { $0.text(1) } == .some(nil))
        #expect(try statement.firstRow([.integer(6)]) { $0.int(0) } == nil)
        #expect(try statement.scalarInt([.integer(4)]) == 4)
        #expect(try connection.statement("SELECT NULL").scalarInt() == nil)
    }

    @Test func aReusedStatementBindsAfresh() throws {
        let statement = try connection.statement("SELECT count(*) FROM t WHERE n <= ?")
        #expect(try statement.scalarInt([.integer(2)]) == 2)
        #expect(try statement.scalarInt([.integer(4)]) == 4)
    }

    @Test func aQueryReadOnlyInPartHoldsNoReadSnapshotAfterwards() throws {
        // An unfinished statement keeps its read transaction on the WAL, and a TRUNCATE checkpoint
        // from another connection then reports itself blocked (first column 1).
        _ = try connection.statement("SELECT n FROM t ORDER BY n").firstRow { $0.int(0) }
        var options = SQLiteOptions()
        options.busyTimeoutMilliseconds = 0
        let other = try SQLiteConnection(path: folder.file("db.sqlite"), options: options)
        #expect(try other.statement("PRAGMA wal_checkpoint(TRUNCATE)").firstRow { $0.int(0) } == 0)
    }

    @Test func textIsBoundAsItsUTF8AnEmptyOneIsNotNullAndItEndsAtANul() throws {
        let texts = ["", "sandbox", "é ✓ 🚗", String(repeating: "0123456789abcdef", count: 20), "before\u{0}after"]
        let insert = try connection.statement("INSERT INTO t (n, label) VALUES (?, ?)")
        for (offset, text) in texts.enumerated() { try insert.run([.integer(Int64(100 + offset)), .text(text)]) }
        let read = try connection.statement("SELECT label, label IS NULL FROM t WHERE n >= 100 ORDER BY n").rows {
            "\($0.text(0) ?? "nil")|\($0.int(1))"
        }
        #expect(read == ["|0", "sandbox|0", "é ✓ 🚗|0", String(repeating: "0123456789abcdef", count: 20) + "|0", "before|0"])
    }

    @Test func aLiteralStatementIsPreparedOnceAndRefusedAfterClose() throws {
        let sql: StaticString = "SELECT count(*) FROM t"
        let first = try connection.statement(sql)
        #expect(try connection.statement(sql) === first)
        #expect(try connection.statement("SELECT count(*) FROM t") === first, "the literal and its text are one statement")
        #expect(try first.scalarInt() == 5)
        connection.close()
        #expect(throws: SQLiteError.self) { try connection.statement(sql) }
    }

    @Test func aFailingStepThrowsAndLeavesTheStatementUsable() throws {
        let insert = try connection.statement("INSERT INTO t (n, label) VALUES (?, ?) RETURNING n")
        #expect(throws: SQLiteError.self) { try insert.rows([.null, .null]) { $0.int(0) } }
        #expect(try insert.rows([.integer(7), .null]) { $0.int(0) } == [7])
    }
}
