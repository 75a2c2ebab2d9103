import TestSupport
import Testing

@testable import PostgresClient

/// A server that stops, restarts, crashes or freezes under an open connection: the next call
/// fails `unreachable` within its bound (never a hang), the connection is broken, and a new one
/// works once the server is back. Each test runs a server of its own.
@Suite struct ServerLossTests {
    let cluster: PostgresCluster
    let uri: String

    init() throws {
        cluster = try PostgresCluster("pg-loss")
        try cluster.start()
        try cluster.psql("CREATE DATABASE loss")
        uri = PostgresCluster.uri(hosts: [cluster], database: "loss")
        try PostgresConnection(conninfo: uri).execute("CREATE TABLE kept (id bigint PRIMARY KEY)")
    }

    func expectUnreachable(_ connection: PostgresConnection, _ sql: String = "SELECT 1") throws {
        let error = try #require(throws: PostgresError.self) { try connection.statement(sql).run() }
        #expect(error.kind == .unreachable, "\(error)")
        #expect(connection.isBroken)
        let again = try #require(throws: PostgresError.self) { try connection.statement(sql).run() }
        #expect(again.kind == .unreachable, "a broken connection stays broken")
    }

    @Test func aStoppedServerIsUnreachableForTheOpenConnectionAndForANewOne() throws {
        let connection = try PostgresConnection(conninfo: uri)
        try connection.statement("INSERT INTO kept VALUES ($1)").run([.integer(1)])
        cluster.stop()
        try expectUnreachable(connection)
        let refused = try #require(throws: PostgresError.self) { try PostgresConnection(conninfo: uri) }
        #expect(refused.kind == .unreachable, "\(refused)")
        try cluster.start()
        #expect(try PostgresConnection(conninfo: uri).statement("SELECT count(*) FROM kept").scalarInt() == 1)
    }

    @Test func aServerRestartedUnderAnOpenConnectionFailsItsNextCallThenANewConnectionWorks() throws {
        let connection = try PostgresConnection(conninfo: uri)
        let insert = try connection.statement("INSERT INTO kept VALUES ($1)")
        try insert.run([.integer(1)])
        try cluster.restart()
        try expectUnreachable(connection)
        let error = try #require(throws: PostgresError.self) { try insert.run([.integer(2)]) }
        #expect(error.kind == .unreachable, "a statement of the broken connection fails too")
        let reopened = try PostgresConnection(conninfo: uri)
        try reopened.statement("INSERT INTO kept VALUES ($1)").run([.integer(2)])
        #expect(try reopened.statement("SELECT count(*) FROM kept").scalarInt() == 2)
    }

    @Test func aCrashedServerIsUnreachableAndKeepsWhatWasCommittedWhenItComesBack() throws {
        let connection = try PostgresConnection(conninfo: uri)
        try connection.transaction { try connection.statement("INSERT INTO kept VALUES ($1)").run([.integer(7)]) }
        cluster.kill()
        try expectUnreachable(connection)
        try cluster.start()
        #expect(try PostgresConnection(conninfo: uri).statement("SELECT id FROM kept").scalarInt() == 7)
    }

    @Test func aFrozenServerCostsACallItsBoundNotAHang() throws {
        let connection = try PostgresConnection(conninfo: uri, callTimeout: .seconds(2))
        #expect(try connection.statement("SELECT 1").scalarInt() == 1)
        cluster.freeze()
        let error = try #require(throws: PostgresError.self) { try connection.statement("SELECT 1").run() }
        #expect(error.kind == .unreachable)
        #expect(error.message.contains("no answer"), "\(error)")
        #expect(connection.isBroken, "an answer arriving later must not be taken for another call's")
        let refused = try #require(throws: PostgresError.self) {
            try PostgresConnection(conninfo: uri, connectTimeout: .seconds(2))
        }
        #expect(refused.kind == .unreachable, "a connect to a frozen server is bounded too: \(refused)")
        cluster.thaw()
        #expect(try PostgresConnection(conninfo: uri).statement("SELECT 1").scalarInt() == 1)
    }

    @Test func aFrozenServerCostsAPipelineItsBoundToo() throws {
        let connection = try PostgresConnection(conninfo: uri, callTimeout: .seconds(2))
        let insert = try connection.statement("INSERT INTO kept VALUES ($1)")
        cluster.freeze()
        let error = try #require(throws: PostgresError.self) {
            try connection.pipeline { batch in for id in 1...100 { batch.run(insert, [.integer(Int64(id))]) } }
        }
        #expect(error.kind == .unreachable)
        #expect(connection.isBroken)
        cluster.thaw()
    }

    @Test func aTransactionWhoseServerWentAwayRethrowsUnreachable() throws {
        let connection = try PostgresConnection(conninfo: uri)
        let insert = try connection.statement("INSERT INTO kept VALUES ($1)")
        let error = try #require(throws: PostgresError.self) {
            try connection.transaction {
                try insert.run([.integer(1)])
                try cluster.restart()
                try insert.run([.integer(2)])
            }
        }
        #expect(error.kind == .unreachable)
        #expect(try PostgresConnection(conninfo: uri).statement("SELECT count(*) FROM kept").scalarInt() == 0)
    }
}
