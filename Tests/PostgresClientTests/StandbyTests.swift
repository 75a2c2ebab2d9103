import TestSupport
import Testing

@testable import PostgresClient

/// A primary with a streaming standby (PostgreSQL's own replication): a standby refuses writes as
/// `readOnly`, and a connection string naming both hosts with `target_session_attrs=read-write`
/// finds whichever is the primary now, also once the standby was promoted and the old primary is
/// dead or frozen.
@Suite struct StandbyTests {
    let primary: PostgresCluster
    let standby: PostgresCluster

    init() throws {
        primary = try PostgresCluster("pg-primary")
        try primary.start()
        try primary.psql("CREATE DATABASE shop")
        try primary.psql("CREATE TABLE orders (id bigint PRIMARY KEY)", database: "shop")
        standby = try primary.makeStandby(synchronous: true)
    }

    func readWrite(connectTimeout: Duration = .seconds(10)) throws -> PostgresConnection {
        try PostgresConnection(
            conninfo: PostgresCluster.readWriteURI(hosts: [standby, primary], database: "shop"), connectTimeout: connectTimeout)
    }

    func isStandby(_ connection: PostgresConnection) throws -> Bool {
        try connection.query("SELECT pg_is_in_recovery()").row(0).bool(0)
    }

    @Test func aStandbyRefusesAWriteAsReadOnlyAndTheConnectionIsLeftForANewOne() throws {
        let connection = try PostgresConnection(conninfo: PostgresCluster.uri(hosts: [standby], database: "shop"))
        #expect(try isStandby(connection))
        let error = try #require(throws: PostgresError.self) {
            try connection.statement("INSERT INTO orders VALUES ($1)").run([.integer(1)])
        }
        #expect(error.kind == .readOnly)
        #expect(error.sqlstate == "25006")
        #expect(connection.isBroken, "the caller reconnects to find the primary")
    }

    @Test func readWriteFindsThePrimaryWhereverItIsListed() throws {
        let connection = try readWrite()
        #expect(try isStandby(connection) == false)
        try connection.statement("INSERT INTO orders VALUES ($1)").run([.integer(1)])
    }

    @Test func readWriteWithOnlyAStandbyToFindIsReadOnly() throws {
        let error = try #require(throws: PostgresError.self) {
            try PostgresConnection(conninfo: PostgresCluster.readWriteURI(hosts: [standby], database: "shop"))
        }
        #expect(error.kind == .readOnly, "\(error)")
    }

    @Test func afterThePrimaryDiesAndTheStandbyIsPromotedANewConnectionFindsItWithWhatWasCommitted() throws {
        let before = try readWrite()
        try before.statement("INSERT INTO orders VALUES ($1)").run([.integer(42)])
        primary.kill()
        let error = try #require(throws: PostgresError.self) { try before.statement("SELECT 1").run() }
        #expect(error.kind == .unreachable)
        try standby.promote()
        let after = try readWrite()
        #expect(try isStandby(after) == false)
        #expect(
            try after.statement("SELECT id FROM orders").scalarInt() == 42,
            "a synchronous standby held the commit answered before the loss")
        try after.statement("INSERT INTO orders VALUES ($1)").run([.integer(43)])
    }

    @Test func aFrozenPrimaryCostsOneHostsBoundAndThePromotedStandbyIsFound() throws {
        primary.freeze()
        try standby.promote()
        let connection = try PostgresConnection(
            conninfo: PostgresCluster.readWriteURI(hosts: [primary, standby], database: "shop"), connectTimeout: .seconds(2))
        #expect(try isStandby(connection) == false)
        #expect(reachedHost(connection) == standby.socketDirectory)
        primary.thaw()
    }
}
