import Foundation
import TestSupport
import Testing

@testable import PostgresClient

/// Each way a connection or a statement is refused, produced for real on the shared test
/// server and classified; no error carries a password.
@Suite struct ConnectErrorTests {
    let cluster: PostgresCluster
    let database: PostgresTestDatabase
    let folder = TemporaryDirectory("pg-connect")

    init() throws {
        cluster = try PostgresCluster.shared()
        database = try cluster.createDatabase("connect")
        try database.psql("CREATE TABLE guarded (x int); INSERT INTO guarded VALUES (1)")
    }

    func refusal(_ conninfo: String) throws -> PostgresError {
        try #require(throws: PostgresError.self) { try PostgresConnection(conninfo: conninfo, connectTimeout: .seconds(60)) }
    }

    @Test func aWrongPasswordIsAnAuthenticationFailureThatDoesNotRepeatThePassword() throws {
        let role = try cluster.createRole("pw", password: "right-horse")
        let error = try refusal(database.uri(user: role, password: "wrong-battery"))
        #expect(error.kind == .authentication)
        #expect(error.sqlstate == "28P01")
        #expect(!error.description.contains("wrong-battery") && !error.description.contains("right-horse"), "\(error)")
        #expect(try PostgresConnection(conninfo: database.uri(user: role, password: "right-horse")).query("SELECT 1").count == 1)
    }

    @Test func noPasswordWhereOneIsNeededIsAnAuthenticationFailure() throws {
        let role = try cluster.createRole("nopw", password: "needed")
        // An empty password file, so none is found anywhere (not even ~/.pgpass).
        let passfile = try folder.write("empty.pgpass", "")
        chmod(passfile, 0o600)
        let error = try refusal(database.uri(user: role, options: ["passfile": passfile]))
        #expect(error.kind == .authentication)
        #expect(error.sqlstate == nil, "libpq refused before the server could: \(error)")
    }

    @Test func thePasswordFileSuppliesThePassword() throws {
        let role = try cluster.createRole("passfile", password: "from:the file")
        // hostname:port:database:username:password, ':' and '\' escaped.
        let passfile = try folder.write(
            "pgpass", "\(cluster.socketDirectory):\(cluster.port):\(database.name):\(role):from\\:the file\n")
        chmod(passfile, 0o600)
        let connection = try PostgresConnection(conninfo: database.uri(user: role, options: ["passfile": passfile]))
        #expect(try connection.query("SELECT current_user").row(0).text(0) == role)
    }

    @Test func aMissingDatabaseIsNamedAsSuch() throws {
        let error = try refusal(PostgresCluster.uri(hosts: [cluster], database: "no_such_database"))
        #expect(error.kind == .missingDatabase)
        #expect(error.sqlstate == "3D000")
        #expect(error.message.contains("no_such_database"))
        #expect(!error.message.contains("LOCATION"), "the server's source location is dropped: \(error.message)")
    }

    @Test func aMissingRoleIsNamedAsSuch() throws {
        let error = try refusal(database.uri(user: "no_such_role"))
        #expect(error.kind == .missingRole)
        #expect(error.sqlstate == "28000")
    }

    @Test func aRoleWithoutTheGrantsIsRefusedTheTableButNotTheSession() throws {
        let role = try cluster.createRole("nogrants")
        let connection = try PostgresConnection(conninfo: database.uri(user: role))
        let error = try #require(throws: PostgresError.self) { try connection.statement("SELECT x FROM guarded").run() }
        #expect(error.kind == .insufficientPrivilege)
        #expect(error.sqlstate == "42501")
        #expect(!connection.isBroken)

        let granted = try cluster.createRole("granted", grants: ["SELECT ON guarded"], in: database)
        #expect(try PostgresConnection(conninfo: database.uri(user: granted)).statement("SELECT x FROM guarded").scalarInt() == 1)
    }

    @Test func aRoleWithoutConnectOnTheDatabaseIsRefusedAtConnect() throws {
        let closed = try cluster.createDatabase("closed")
        try cluster.psql("REVOKE CONNECT ON DATABASE \(closed.name) FROM PUBLIC")
        let role = try cluster.createRole("noconnect")
        let error = try refusal(closed.uri(user: role))
        #expect(error.kind == .insufficientPrivilege)
        #expect(error.sqlstate == "42501")
    }

    @Test func tooManyConnectionsIsBusy() throws {
        let role = try cluster.createRole("limited")
        try cluster.psql("ALTER ROLE \(role) CONNECTION LIMIT 1")
        let first = try PostgresConnection(conninfo: database.uri(user: role))
        let error = try refusal(database.uri(user: role))
        #expect(error.kind == .busy)
        #expect(error.sqlstate == "53300")
        _ = first
    }

    @Test func aServerThatIsNotThereIsUnreachable() throws {
        let error = try refusal("postgresql://postgres@\(PostgresCluster.percentEncoded(folder.path)):5432/postgres")
        #expect(error.kind == .unreachable)
        #expect(error.sqlstate == nil)
        #expect(error.message.contains(folder.path), "libpq names the socket it tried: \(error.message)")
    }

    @Test func theKeyValueFormWorksAsTheURIDoes() throws {
        let role = try cluster.createRole("keyvalue", password: "it's a \\ secret")
        let connection = try PostgresConnection(conninfo: database.keyValueConninfo(user: role, password: "it's a \\ secret"))
        #expect(try connection.query("SELECT current_database()").row(0).text(0) == database.name)
    }

    @Test func aSessionEndedByTheServerFailsItsNextCallAsUnreachable() throws {
        let connection = try PostgresConnection(conninfo: database.uri(), applicationName: "ended-by-server")
        #expect(try connection.statement("SELECT 1").scalarInt() == 1)
        #expect(try cluster.terminateBackends(database: database.name, applicationName: "ended-by-server") == 1)
        let error = try #require(throws: PostgresError.self) { try connection.statement("SELECT 1").run() }
        #expect(error.kind == .unreachable)
        #expect(connection.isBroken)
        #expect(throws: PostgresError.self) { try connection.statement("SELECT 2").run() }
        #expect(try PostgresConnection(conninfo: database.uri()).statement("SELECT 1").scalarInt() == 1)
    }
}
