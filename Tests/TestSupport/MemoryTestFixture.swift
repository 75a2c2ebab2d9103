import LiveActivityStore
import MemoryStore

/// The in-memory engine for a test: the contract alone. It has no SQL and no connection of its
/// own to hold or break, so what a test plants that way throws `RawMemory.NoSQL` (a test that
/// needs it runs on the real engines only).
struct MemoryTestFixture: TestEngineFixture {
    func create(label: String, in folder: TemporaryDirectory) throws -> TestDatabase.Parts {
        TestDatabase.Parts(setting: "memory", engine: MemoryEngine(), raw: RawMemory())
    }

    /// No program opens it: a SQLite file in a folder that is not there, as for SQLite.
    func unusable(in folder: TemporaryDirectory) throws -> TestDatabase {
        try SQLiteTestFixture().unusable(in: folder)
    }

    func pretendNewerSchema(_ database: TestDatabase) throws { throw RawMemory.NoSQL() }

    /// It never waits: its writes do not take a lock another connection can hold.
    func patientEngine(_ database: TestDatabase) -> any StoreEngine { database.engine }

    func impatientEngine(_ database: TestDatabase) -> any StoreEngine { database.engine }

    func refusingInserts(endingIn suffix: String, message: String) throws -> String { throw RawMemory.NoSQL() }

    func refusingUpdates(of token: String) throws -> String { throw RawMemory.NoSQL() }

    func holdWriteLock(_ database: TestDatabase) throws -> WriteLockHolder { throw RawMemory.NoSQL() }

    func breakOpenConnections(_ database: TestDatabase) throws { throw RawMemory.NoSQL() }

    var attemptsAsText: String { "hex(attempts)" }

    func sweepFolder(_ database: TestDatabase) -> String { database.folder.file("sweep") }

    var isShared: Bool { false }
}

/// The in-memory engine has no SQL: a test that reaches for it runs on the real engines only.
struct RawMemory: RawDatabase {
    struct NoSQL: Error, CustomStringConvertible {
        var description: String { "the in-memory engine runs no SQL; this test is for the real engines" }
    }

    func execute(_ sql: String) throws { throw NoSQL() }
    func rows(_ sql: String) throws -> [[String?]] { throw NoSQL() }
}
