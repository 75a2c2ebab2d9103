import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore

/// Storage's own fault policy: what a failure is, whether it passes, whether to reopen.
@Suite struct DatabaseFaultTests {
    func classify(_ code: Int32) -> DatabaseFault? { DatabaseFault(SQLiteError(code: code, message: "m")) }

    @Test(arguments: [
        // code (extended codes keep their primary meaning), kind, passes, needs a reopen, cause
        (Int32(5), DatabaseFault.Kind.busy, true, false, "busy"),
        (6, .busy, true, false, "busy"),
        (5 | (2 << 8), .busy, true, false, "busy"),  // SQLITE_BUSY_SNAPSHOT
        (8, .readOnly, true, true, "read-only"),
        (14, .cannotOpen, true, true, "cannot open"),
        (10 | (3 << 8), .ioError, true, true, "I/O error"),  // SQLITE_IOERR_WRITE
        (13, .full, true, false, "disk full"),
        (11, .corrupt, false, true, "corrupt"),
        (26, .notADatabase, false, true, "not a database"),
        (1, .other(code: 1), false, false, "code 1"),
        (19, .other(code: 19), false, false, "code 19"),
    ])
    func sqliteCodesAreNamed(code: Int32, kind: DatabaseFault.Kind, passes: Bool, reopen: Bool, cause: String) throws {
        let fault = try #require(classify(code))
        #expect(fault.kind == kind)
        #expect(fault.passes == passes)
        #expect(fault.needsReopen == reopen)
        #expect(fault.cause == cause)
        #expect(fault.detail == "m (code \(code))")
    }

    @Test func aDatabaseFromANewerBuildIsAFaultThatNeedsTheOperator() throws {
        let fault = try #require(DatabaseFault(SchemaTooNewError(found: 9, supported: 3)))
        #expect(fault.kind == .schemaTooNew && !fault.passes && !fault.needsReopen)
        #expect(fault.detail == "database schema version 9 is newer than this build (3)")
    }

    @Test func otherErrorsAreNoDatabaseFault() {
        #expect(DatabaseFault(StoreError.capacityReached(limit: 1)) == nil)
        #expect(DatabaseFault(CancellationError()) == nil)
    }

    @Test func theAdviceNamesTheSettingThatApplies() throws {
        let full = try #require(classify(13))
        #expect(full.advice(pageCeiling: nil) == "free space on its filesystem")
        #expect(
            full.advice(pageCeiling: 24)
                == "free space on its filesystem or the LIVEACTIVITY_SQLITE_MAX_PAGES ceiling of 24 pages")
        #expect(try #require(classify(5)).advice(pageCeiling: nil).contains("LIVEACTIVITY_BUSY_TIMEOUT_MS"))
        #expect(try #require(classify(26)).advice(pageCeiling: nil).contains("LIVEACTIVITY_DB"))
    }

    @Test func aRealMissingFolderIsCannotOpen() throws {
        let folder = TemporaryDirectory("fault")
        do {
            _ = try RegistrationStore(path: folder.file("missing/db.sqlite"))
            Issue.record("opened a database in a missing folder")
        } catch {
            #expect(DatabaseFault(error)?.kind == .cannotOpen)
        }
    }

    @Test func aFileThatIsNoDatabaseIsNamedSo() throws {
        let folder = TemporaryDirectory("fault")
        let path = folder.file("db.sqlite")
        try String(repeating: "not a database ", count: 100).write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try RegistrationStore(path: path)
            Issue.record("opened a text file as a database")
        } catch {
            #expect(DatabaseFault(error)?.kind == .notADatabase)
        }
    }
}
