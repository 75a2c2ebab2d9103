import TestSupport
import Testing

@testable import PostgresClient

/// Statements are prepared once per connection and reused by name; results report their rows
/// and the rows a command touched; a mistake in a call fails that call and leaves the session usable.
@Suite struct PreparedStatementTests {
    let database: PostgresTestDatabase
    let connection: PostgresConnection

    init() throws {
        database = try PostgresCluster.shared().createDatabase("statements")
        connection = try PostgresConnection(conninfo: database.uri())
        try connection.execute(
            """
            CREATE TABLE counters (name text PRIMARY KEY, value bigint NOT NULL);
            INSERT INTO counters VALUES ('a', 1), ('b', 2), ('c', 3);
            """)
    }

    func preparedOnServer(_ sql: String) throws -> Int64? {
        try connection.query("SELECT count(*) FROM pg_prepared_statements WHERE statement = $1", [.text(sql)]).firstRow {
            $0.int(0)
        }
    }

    @Test func aStatementIsPreparedOnceAndReusedByItsText() throws {
        let sql = "SELECT value FROM counters WHERE name = $1"
        let first = try connection.statement(sql)
        for name in ["a", "b", "c", "a"] { _ = try first.scalarInt([.text(name)]) }
        let second = try connection.statement(sql)
        #expect(first.name == second.name)
        #expect(try second.scalarInt([.text("c")]) == 3)
        #expect(try preparedOnServer(sql) == 1)
    }

    @Test func rowsComeInOrderAndCommandsSayHowManyRowsTheyTouched() throws {
        let names = try connection.statement("SELECT name, value FROM counters ORDER BY value DESC").rows { row in
            "\(row.text(0) ?? "?")=\(row.int(1))"
        }
        #expect(names == ["c=3", "b=2", "a=1"])
        let update = try connection.statement("UPDATE counters SET value = value + $1 WHERE value >= $2").run([
            .integer(10), .integer(2),
        ])
        #expect(update.rowsAffected == 2)
        #expect(update.commandTag == "UPDATE 2")
        let none = try connection.statement("SELECT name FROM counters WHERE value < 0").run()
        #expect(none.count == 0)
        #expect(try connection.statement("SELECT name FROM counters WHERE value < 0").firstRow { $0.text(0) } == nil)
    }

    @Test func aRowMayBeKeptAfterTheCallThatReadIt() throws {
        let rows = try connection.statement("SELECT name FROM counters ORDER BY name").rows { $0 }
        #expect(rows.map { $0.text(0) } == ["a", "b", "c"])
    }

    @Test func executeRunsSeveralStatementsAndQueryRunsOneUnprepared() throws {
        try connection.execute("CREATE TABLE t (x int); INSERT INTO t VALUES (1), (2); UPDATE t SET x = x * 10")
        let result = try connection.query("SELECT sum(x) FROM t WHERE x > $1", [.integer(5)])
        #expect(result.row(0).int(0) == 30)
        #expect(try preparedOnServer("SELECT sum(x) FROM t WHERE x > $1") == 0)
    }

    @Test func aStatementThatFailsToPrepareSaysWhyAndTheSessionGoesOn() throws {
        let error = try #require(throws: PostgresError.self) { try connection.statement("SELEC 1") }
        #expect(error.sqlstate == "42601")
        #expect(error.kind == .other)
        #expect(error.sql == "SELEC 1")
        let missing = try #require(throws: PostgresError.self) { try connection.statement("SELECT * FROM nowhere") }
        #expect(missing.sqlstate == "42P01")
        #expect(try connection.statement("SELECT 1").scalarInt() == 1)
    }

    @Test func theWrongNumberOfValuesIsTheCallersMistakeNotALostConnection() throws {
        let statement = try connection.statement("SELECT value FROM counters WHERE name = $1")
        let error = try #require(throws: PostgresError.self) { try statement.run([.text("a"), .text("b")]) }
        #expect(error.sqlstate == "08P01", "the server calls it a protocol violation")
        #expect(error.kind == .other)
        #expect(!connection.isBroken)
        #expect(try statement.scalarInt([.text("b")]) == 2)
    }

    @Test func copyIsRefusedAndTheConnectionClosedRatherThanLeftWaitingForData() throws {
        let error = try #require(throws: PostgresError.self) { try connection.execute("COPY counters FROM STDIN") }
        #expect(error.kind == .other)
        #expect(connection.isBroken)
    }

    @Test func aUniqueViolationNamesItsConstraintButNotTheValues() throws {
        let insert = try connection.statement("INSERT INTO counters VALUES ($1, $2)")
        try insert.run([.text("secret-token-value"), .integer(9)])
        let duplicate = try #require(throws: PostgresError.self) { try insert.run([.text("secret-token-value"), .integer(9)]) }
        #expect(duplicate.kind == .constraintViolation)
        #expect("23505" ~= duplicate)
        #expect("23" ~= duplicate)
        #expect(!("42" ~= duplicate))
        #expect(duplicate.constraint == "counters_pkey")
        #expect(!duplicate.description.contains("secret-token-value"), "the server's DETAIL quotes the row: \(duplicate)")
        #expect(!connection.isBroken)
    }

    @Test func aDataExceptionDoesNotQuoteTheBoundValue() throws {
        let error = try #require(throws: PostgresError.self) {
            try connection.query("SELECT $1::bigint", [.text("token-abcdef0123")])
        }
        #expect(error.sqlstate == "22P02")
        #expect(!error.description.contains("token-abcdef0123"), "\(error)")
        #expect(error.message.contains("bigint"), "the message still says what was wrong: \(error.message)")
    }

    @Test func sessionStateLastsAsLongAsTheConnection() throws {
        try connection.execute("SET application_name = 'session-check'; CREATE TEMPORARY TABLE scratch (x int)")
        #expect(try connection.query("SELECT pg_try_advisory_lock(42)").row(0).bool(0))
        try connection.statement("INSERT INTO scratch VALUES ($1)").run([.integer(5)])
        #expect(try connection.statement("SELECT current_setting('application_name')").firstRow { $0.text(0) } == "session-check")
        #expect(try connection.statement("SELECT x FROM scratch").scalarInt() == 5)
        let other = try PostgresConnection(conninfo: database.uri())
        #expect(try other.query("SELECT pg_try_advisory_lock(42)").row(0).bool(0) == false, "the first session holds it")
        connection.close()
        #expect(connection.isBroken)
        #expect(
            try other.query("SELECT pg_try_advisory_lock(42)").row(0).bool(0)
                || waitUntil(timeout: 30) {
                    (try? other.query("SELECT pg_try_advisory_lock(42)").row(0).bool(0)) == true
                }, "closing the session released its lock")
    }

    @Test func applicationNameNamesTheSession() throws {
        let named = try PostgresConnection(conninfo: database.uri(), applicationName: "liveactivity-test")
        let seen = try named.query("SELECT application_name FROM pg_stat_activity WHERE pid = pg_backend_pid()").row(0).text(0)
        #expect(seen == "liveactivity-test")
        #expect(named.backendPID > 0)
        #expect(named.serverVersion >= 140000)
    }
}
