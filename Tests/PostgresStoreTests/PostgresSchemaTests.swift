import Foundation
import LiveActivityStore
import TestSupport
import Testing

@testable import PostgresStore

/// The schema on PostgreSQL (SPEC 4): migrated forward on open by one program at a time under an
/// advisory lock, whichever opens first; a database a newer build migrated refused by every
/// program and left as it is.
@Suite(
    "PostgreSQL schema")
struct PostgresSchemaTests {
    @Test func programsOpeningAnEmptyDatabaseAtOnceMigrateItOnce() throws {
        let database = try PostgresCluster.shared().createDatabase("migrate")
        let engine = try PostgresEngine(uri: database.uri())
        let failures = LockedBox<[String]>([])
        // Responders and sweeps started together on a database no program has opened yet.
        let ended = TestThreads.run(8) { index in
            do {
                let opened: any StoreConnection =
                    index.isMultiple(of: 2) ? try engine.openRegistrations() : try engine.openSweep(migrating: true)
                opened.close()
            } catch {
                failures.update { $0.append("\(error)") }
            }
        }
        #expect(ended, "a program never finished opening the database")
        #expect(failures.get().isEmpty, "\(failures.get())")
        #expect(
            try database.psql("SELECT count(*), min(version) FROM liveactivity_schema") == "1|\(PostgresSchema.currentVersion)")
        #expect(try database.psql("SELECT count(*) FROM pg_tables WHERE tablename = 'push_targets'") == "1")
        #expect(try database.psql("SELECT count(*) FROM pg_tables WHERE tablename = 'registrations'") == "0")
    }

    @Test func aDatabaseANewerBuildMigratedIsRefusedByEveryProgramAndLeftAsItIs() throws {
        let database = try TestDatabase(.postgres, label: "newer")
        try database.pretendNewerSchema()
        let before = try database.rows("SELECT version FROM liveactivity_schema")
        let opens: [(String, () throws -> Void)] = [
            ("the responder", { try database.engine.openRegistrations().close() }),
            ("a sweep", { try database.engine.openSweep(migrating: true).close() }),
            ("the outcome writer", { try database.engine.openOutcomeWriter().close() }),
            ("stats", { try database.engine.openExisting().close() }),
        ]
        for (program, open) in opens {
            let error = #expect(throws: (any Error).self, "\(program) opened it") { try open() }
            let fault = error.flatMap { StoreFault.of($0) }
            #expect(fault?.kind == .tooNew && fault?.isSetting == true, "\(program): \(String(describing: error))")
        }
        #expect(try database.rows("SELECT version FROM liveactivity_schema") == before)
    }
}
