import LiveActivityStore

/// What a test needs of one engine beyond the store's contract: how to make a database of the
/// test's own, the program's `LIVEACTIVITY_DB` for it, and the SQL and connections a test plants
/// or holds to put it in a state no API reaches. One conformance per engine, so a helper of
/// `TestDatabase` is written once for every engine (STYLE 23).
protocol TestEngineFixture: Sendable {
    /// A new database of the test's own, its files (if any) in `folder`.
    func create(label: String, in folder: TemporaryDirectory) throws -> TestDatabase.Parts

    /// A database of this engine that cannot be used (a folder or database that is not there).
    func unusable(in folder: TemporaryDirectory) throws -> TestDatabase

    /// Marks the schema as written by a build newer than this one.
    func pretendNewerSchema(_ database: TestDatabase) throws

    /// The engine waiting a minute for a write lock another connection holds.
    func patientEngine(_ database: TestDatabase) -> any StoreEngine

    /// The engine waiting a tenth of a second for a write lock, then busy.
    func impatientEngine(_ database: TestDatabase) -> any StoreEngine

    /// SQL that makes every later INSERT of a token ending in `suffix` fail with `message`.
    func refusingInserts(endingIn suffix: String, message: String) throws -> String

    /// SQL that makes every later UPDATE of `token`'s row fail.
    func refusingUpdates(of token: String) throws -> String

    /// The registrations' write lock, held from a connection of the test's own.
    func holdWriteLock(_ database: TestDatabase) throws -> WriteLockHolder

    /// Takes the database away from under every open connection.
    func breakOpenConnections(_ database: TestDatabase) throws

    /// An SQL expression of a row's attempts as comparable text.
    var attemptsAsText: String { get }

    /// The sweep's own folder for `database`.
    func sweepFolder(_ database: TestDatabase) -> String

    /// Whether several hosts share the database: a sweep's writes need its lease on the rows,
    /// and a program is told the sweep's folder (`LIVEACTIVITY_SWEEP_DIR`).
    var isShared: Bool { get }
}
