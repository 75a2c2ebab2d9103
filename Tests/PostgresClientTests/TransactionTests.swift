import TestSupport
import Testing

@testable import PostgresClient

/// `transaction` commits what its body did when it returns and rolls it all back when it throws,
/// rethrowing the body's own error.
@Suite struct TransactionTests {
    struct BodyFailed: Error {}

    let database: PostgresTestDatabase
    let connection: PostgresConnection

    init() throws {
        database = try PostgresCluster.shared().createDatabase("transactions")
        connection = try PostgresConnection(conninfo: database.uri())
        try connection.execute("CREATE TABLE entries (id bigint PRIMARY KEY)")
    }

    func insert(_ id: Int64) throws { try connection.statement("INSERT INTO entries VALUES ($1)").run([.integer(id)]) }

    func stored() throws -> [Int64] {
        try PostgresConnection(conninfo: database.uri()).statement("SELECT id FROM entries ORDER BY id").rows { $0.int(0) }
    }

    @Test func whatTheBodyWroteIsCommittedWhenItReturns() throws {
        let value = try connection.transaction {
            try insert(1)
            try insert(2)
            return "done"
        }
        #expect(value == "done")
        #expect(try stored() == [1, 2])
        #expect(!connection.isInTransaction)
    }

    @Test func aThrowRollsEverythingBackAndRethrowsTheBodysError() throws {
        #expect(throws: BodyFailed.self) {
            try connection.transaction {
                try insert(3)
                throw BodyFailed()
            }
        }
        #expect(try stored() == [])
        #expect(!connection.isInTransaction)
        let duplicate = try #require(throws: PostgresError.self) {
            try connection.transaction {
                try insert(4)
                try insert(4)
            }
        }
        #expect(duplicate.kind == .constraintViolation)
        #expect(try stored() == [])
        try connection.transaction { try insert(5) }
        #expect(try stored() == [5], "the session is ready for the next transaction")
    }

    @Test func anErrorSwallowedInsideMakesTheCommitThrowNotPretend() throws {
        try insert(6)
        let error = try #require(throws: PostgresError.self) {
            try connection.transaction {
                try insert(7)
                _ = try? insert(6)
            }
        }
        #expect(error.sql == "COMMIT")
        #expect(try stored() == [6])
        #expect(!connection.isInTransaction)
    }

    @Test func aTransactionInsideAnotherIsRefused() throws {
        let error = try #require(throws: PostgresError.self) {
            try connection.transaction {
                try insert(8)
                try connection.transaction { try insert(9) }
            }
        }
        #expect(error.message.contains("already open"))
        #expect(try stored() == [])
    }
}
