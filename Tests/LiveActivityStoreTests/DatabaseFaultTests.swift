import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore
@testable import SQLiteClient
@testable import SQLiteStore

/// The store's fault policy: what a failure is, whether it passes, whether to reopen; and how the
/// SQLite engine names SQLite's failures.
@Suite struct DatabaseFaultTests {
    func classify(_ code: Int32, pageCeiling: Int? = nil) -> StoreFault {
        StoreFault(sqlite: SQLiteError(code: code, message: "m"), path: "db.sqlite", pageCeiling: pageCeiling)
    }

    @Test(arguments: [
        // code (extended codes keep their primary meaning), kind, passes, needs a reopen, cause
        (Int32(5), StoreFault.Kind.busy, true, false, "busy"),
        (6, .busy, true, false, "busy"),
        (5 | (2 << 8), .busy, true, false, "busy"),  // SQLITE_BUSY_SNAPSHOT
        (8, .readOnly, true, true, "read-only"),
        (14, .cannotOpen, true, true, "cannot open"),
        (10 | (3 << 8), .ioError, true, true, "I/O error"),  // SQLITE_IOERR_WRITE
        (13, .full, true, false, "disk full"),
        (11, .corrupt, false, true, "corrupt"),
        (26, .notADatabase, false, true, "not a database"),
        (1, .other(code: "1"), false, false, "code 1"),
        (19, .other(code: "19"), false, false, "code 19"),
    ])
    func sqliteCodesAreNamed(code: Int32, kind: StoreFault.Kind, passes: Bool, reopen: Bool, cause: String) throws {
        let fault = classify(code)
        #expect(fault.kind == kind)
        #expect(fault.passes == passes)
        #expect(fault.needsReopen == reopen)
        #expect(fault.cause == cause)
        #expect(fault.message == "m (code \(code))")
    }

    @Test func aDatabaseFromANewerBuildIsAFaultThatNeedsTheOperator() throws {
        let fault = try #require(StoreFault.of(SchemaTooNewError(found: 9, supported: 3)))
        #expect(fault.kind == .tooNew && !fault.passes && !fault.needsReopen && fault.isSetting)
        #expect(fault.message == "database schema version 9 is newer than this build (3)")
    }

    @Test func otherErrorsAreNoDatabaseFault() {
        #expect(StoreFault.of(StoreError.capacityReached(limit: 1)) == nil)
        #expect(StoreFault.of(CancellationError()) == nil)
    }

    @Test func theAdviceNamesTheSettingThatApplies() throws {
        #expect(classify(13).advice == "free space on its filesystem")
        #expect(
            classify(13, pageCeiling: 24).advice
                == "free space on its filesystem or the LIVEACTIVITY_SQLITE_MAX_PAGES ceiling of 24 pages")
        #expect(classify(5).advice.contains("LIVEACTIVITY_BUSY_TIMEOUT_MS"))
        #expect(classify(26).advice.contains("LIVEACTIVITY_DB"))
    }

    @Test func aRealMissingFolderIsCannotOpen() throws {
        let folder = TemporaryDirectory("fault")
        do {
            _ = try SQLiteEngine(path: folder.file("missing/db.sqlite")).openRegistrations()
            Issue.record("opened a database in a missing folder")
        } catch {
            #expect(StoreFault.of(error)?.kind == .cannotOpen)
        }
    }

    @Test func aFileThatIsNoDatabaseIsNamedSo() throws {
        let folder = TemporaryDirectory("fault")
        let path = folder.file("db.sqlite")
        try String(repeating: "not a database ", count: 100).write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try SQLiteEngine(path: path).openRegistrations()
            Issue.record("opened a text file as a database")
        } catch {
            #expect(StoreFault.of(error)?.kind == .notADatabase)
        }
    }
}
