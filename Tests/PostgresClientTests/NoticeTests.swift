import CPostgreSQL
import TestSupport
import Testing

@testable import PostgresClient

/// The server's notices and warnings to the client never reach stderr (libpq's default notice
/// processor prints them there): a log line is the program's, one line, stamped.
@Suite struct NoticeTests {
    @Test func aConnectionDoesNotUseLibpqsPrintingNoticeProcessor() throws {
        let database = try PostgresCluster.shared().createDatabase("notices")
        let connection = try PostgresConnection(conninfo: database.uri())
        // A connection libpq made but never used holds libpq's default processor.
        let fresh = try #require(PQconnectStart(""))
        defer { PQfinish(fresh) }
        let libpqDefault = PQsetNoticeProcessor(fresh, nil, nil)
        let ours = PQsetNoticeProcessor(connection.handle, nil, nil)
        #expect(ours != nil && libpqDefault != nil)
        #expect(unsafeBitCast(ours, to: UnsafeRawPointer?.self) != unsafeBitCast(libpqDefault, to: UnsafeRawPointer?.self))

        // Notices and warnings are no errors, in a plain call, a transaction and a pipeline.
        try connection.execute("DO $$ BEGIN RAISE NOTICE 'n'; RAISE WARNING 'w'; END $$")
        try connection.transaction { try connection.execute("BEGIN") }  // "already in a transaction" is a WARNING
        let rollback = try connection.statement("ROLLBACK")
        #expect(try connection.pipeline { $0.run(rollback) }.count == 1)  // "no transaction in progress" is a WARNING
    }
}
