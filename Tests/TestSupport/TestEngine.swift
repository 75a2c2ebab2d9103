import Foundation

/// The engine a test stores in (SPEC 8: every store, API and sweep test runs on each, from the
/// same test code). A test takes the engine as its argument and runs on each in one pass of
/// `swift test` (`every`, or `real` for one that starts a program: its name in the test case's).
/// A test of what only one engine has (a SQLite file deleted under the responder, a PostgreSQL
/// server restarted) names that engine itself and says so in its name.
public enum TestEngine: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case postgres
    /// The in-memory engine (`MemoryStore`): the contract alone, no SQL (its `execute` and
    /// `rows` refuse), no program can open it.
    case memory

    /// Every engine, for a suite that runs its test bodies on each in one pass.
    public static let every: [TestEngine] = [.sqlite, .postgres, .memory]

    /// The engines a program can open (`LIVEACTIVITY_DB`).
    public static let real: [TestEngine] = [.sqlite, .postgres]

    public var description: String { rawValue }

    /// How a test makes and reaches a database of this engine: the one place that tells the
    /// engines apart, so `TestDatabase`'s helpers are written once (STYLE 23).
    var fixture: any TestEngineFixture {
        switch self {
        case .sqlite: SQLiteTestFixture()
        case .postgres: PostgresTestFixture()
        case .memory: MemoryTestFixture()
        }
    }
}
