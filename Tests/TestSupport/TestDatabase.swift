import Foundation
import LiveActivityDomain
import LiveActivityFigures
import LiveActivityStore
import PostgresStore
import SQLiteStore

/// A database of one engine for one test, and nothing else's: a file in a folder of its own on
/// SQLite, a database of its own in the test run's PostgreSQL cluster. Gone when released.
///
/// It reaches the database as the programs do (the engine's contract), and also raw, for what a
/// test sets up or reads that no API shows (a row as a hand edit or a newer build left it).
public final class TestDatabase: @unchecked Sendable {
    public let kind: TestEngine
    /// What tells `kind` apart from the other engines (its SQL, its locks, its folders).
    let fixture: any TestEngineFixture
    public let engine: any StoreEngine
    /// `LIVEACTIVITY_DB` for a program the test starts.
    public let setting: String
    /// A folder of the test's own (the SQLite file, the sweep's folder, logs).
    public let folder: TemporaryDirectory
    private let raw: any RawDatabase
    /// The PostgreSQL database of a `.postgres` one (dropped when this is released).
    public let postgres: PostgresTestDatabase?
    /// The responder's path for writes (`register`, `unregister`, `acknowledge`), opened on first use.
    public private(set) lazy var writer = RegistrationWriter(engine: engine)

    public init(_ kind: TestEngine, label: String = "db", folder: TemporaryDirectory? = nil) throws {
        self.kind = kind
        fixture = kind.fixture
        // The engine in the folder's name, so a leftover folder or a log path says which case it was.
        let folder = folder ?? TemporaryDirectory("\(label)-\(kind)")
        self.folder = folder
        let parts = try fixture.create(label: label, in: folder)
        setting = parts.setting
        engine = parts.engine
        raw = parts.raw
        postgres = parts.postgres
    }

    /// What a fixture makes of a new database.
    struct Parts {
        var setting: String
        var engine: any StoreEngine
        var raw: any RawDatabase
        var postgres: PostgresTestDatabase? = nil
    }

    /// A PostgreSQL database `setting` names (a test's own cluster, a role of its own).
    public init(postgresURI uri: String, database: PostgresTestDatabase? = nil, folder: TemporaryDirectory? = nil) throws {
        kind = .postgres
        fixture = kind.fixture
        self.folder = folder ?? TemporaryDirectory("pg")
        setting = uri
        engine = try PostgresEngine(uri: uri)
        raw = RawPostgres(conninfo: uri)
        postgres = database
    }

    /// A SQLite database at `path`, which the test made (or damaged, or left missing) itself.
    public init(sqliteFile path: String) {
        kind = .sqlite
        fixture = kind.fixture
        folder = TemporaryDirectory("unused")
        setting = path
        engine = SQLiteEngine(path: path)
        raw = RawSQLite(path: path)
        postgres = nil
    }

    /// A database of `engine` that cannot be used: a file in a folder that is not there
    /// (SQLite); a database the server does not have (PostgreSQL).
    public static func unusable(_ engine: TestEngine, in folder: TemporaryDirectory) throws -> TestDatabase {
        try engine.fixture.unusable(in: folder)
    }

    // MARK: - Raw SQL

    /// Runs `sql` (statements both engines read alike: plain UPDATE, DELETE, INSERT) as the test's own.
    public func execute(_ sql: String) throws { try raw.execute(sql) }

    /// Sets each group's wake-ups from its targets' stored counts, as schema step 15 does: for a
    /// test that plants `push_count`s with SQL (the writes of the programs keep them up).
    public func recountWakeups() throws {
        try execute(
            """
            UPDATE target_groups SET wakeups = coalesce((
                SELECT sum(p.push_count) FROM push_targets p
                WHERE p.push_kind = target_groups.push_kind AND p.environment = target_groups.environment
                    AND p.activity_type = target_groups.activity_type AND p.app = target_groups.app), 0)
            """)
    }

    /// The first column of the first row of `sql`, as an integer.
    public func scalar(_ sql: String) throws -> Int64? { try raw.rows(sql).first?.first.flatMap { $0.flatMap { Int64($0) } } }

    /// Marks the schema as written by a build newer than this one (a database this build must refuse).
    public func pretendNewerSchema() throws { try fixture.pretendNewerSchema(self) }

    /// The engine with a write lock waited on for a minute (SQLite's busy timeout): for tests
    /// that hold the lock from another connection on purpose.
    public var patientEngine: any StoreEngine { fixture.patientEngine(self) }

    /// The engine with a write lock waited on for a tenth of a second: for tests of a database
    /// that stays busy.
    public var impatientEngine: any StoreEngine { fixture.impatientEngine(self) }

    /// Makes every later INSERT of a token ending in `suffix` fail with `message`, as a trigger.
    public func refuseInserts(endingIn suffix: String, message: String) throws {
        try execute(try fixture.refusingInserts(endingIn: suffix, message: message))
    }

    /// Makes every later UPDATE of `token`'s row fail (a write the database refuses), as a trigger.
    public func refuseUpdates(of token: String) throws { try execute(try fixture.refusingUpdates(of: token)) }

    /// Holds the database's write lock (for the registrations) from a connection of the test's own
    /// until `release`, as another writer would.
    public func holdWriteLock() throws -> WriteLockHolder { try fixture.holdWriteLock(self) }

    /// Takes the database away from under every open connection, as an operator or a crash might:
    /// the SQLite file deleted (and its -wal, -shm), or every PostgreSQL session ended by the server.
    public func breakOpenConnections() throws { try fixture.breakOpenConnections(self) }

    /// An SQL expression of a row's attempts as comparable text.
    public var attemptsAsText: String { fixture.attemptsAsText }

    /// Every row of `sql`, each column as text (nil for NULL).
    public func rows(_ sql: String) throws -> [[String?]] { try raw.rows(sql) }

    // MARK: - As the programs reach it

    /// A connection as the sweep opens one (migrated), under `lease` where the database is shared
    /// (PostgreSQL), as a sweep sets its own.
    public func sweep(under lease: SweepLease = TestDatabase.lease) throws -> any SweepStatements {
        Self.leasing(try engine.openSweep(migrating: true), under: lease)
    }

    /// `connection` under `lease` where the database is shared (PostgreSQL), as a sweep sets its
    /// lease on each connection it uses; as it is otherwise.
    public static func leasing(
        _ connection: any SweepStatements, under lease: SweepLease = TestDatabase.lease
    ) -> any SweepStatements {
        (connection as? any SharedDatabase)?.lease = lease
        return connection
    }

    /// Stores or refreshes a registration through the responder's group commit, with its targets
    /// of other kinds (`others`, besides a widgets target given as `widget`).
    @discardableResult
    public func register(
        _ token: PushToken, type: ActivityType = .charging, environment: APNsEnvironment = .production, now: Int64,
        expiresAt: Int64? = nil, cap: Int = 1_000_000, unprovenCap: Int = 1_000_000, interval: Int? = nil,
        widget: NewRegistration.Widget? = nil, others: [NewRegistration.Other] = [], app: AppName = .defaultApp,
        device: DeviceState = .unknown
    ) throws -> StoreWrite.RegisterResult {
        var registration = NewRegistration(
            token: token, activityType: type, environment: environment, registeredAt: now,
            expiresAt: expiresAt ?? now + 8 * 3_600_000, requestedInterval: interval, widget: widget, app: app)
        registration.others += others
        registration.device = device
        guard
            case .registered(let result) = try writer.perform(
                .register(registration, caps: .init(total: cap, unproven: unprovenCap)))
        else { throw UnexpectedAnswer() }
        return result
    }

    @discardableResult
    public func unregister(_ token: PushToken) throws -> Bool {
        guard case .unregistered(let found) = try writer.perform(.unregister(token)) else { throw UnexpectedAnswer() }
        return found
    }

    /// The ack's outcome; nil while it waits for a push on its way.
    @discardableResult
    public func acknowledge(
        _ token: PushToken, now: Int64, policy: IntervalPolicy = IntervalPolicy(), app: AppName = .defaultApp,
        report: AckReport = .none
    ) throws -> AckOutcome? {
        guard
            case .acknowledged(let outcome) = try writer.perform(
                .acknowledge(token, app: app, now: now, policy: policy, report: report))
        else {
            throw UnexpectedAnswer()
        }
        return outcome
    }

    /// The registration of `token` in `app` with its targets (their attempts too when `attempts`).
    public func registration(_ token: PushToken, app: AppName = .defaultApp, attempts: Bool = false) throws -> Registration? {
        try reading { try $0.registration(RegistrationKey(app: app, token: token), attempts: attempts) }
    }

    public func count() throws -> Int { try reading { try $0.registrationCount() } }

    /// Applies one outcome batch as the sweep's writer does; how many targets it deleted. The
    /// targets written are first taken under `lease` as a sweep's claim takes them (PostgreSQL
    /// writes an outcome only where its row carries the sweep's lease; SQLite needs no claim).
    @discardableResult
    public func apply(
        _ writes: [OutcomeWrite], answered: [AnsweredPush] = [], lease: SweepLease = TestDatabase.lease,
        policy: IntervalPolicy = IntervalPolicy()
    ) throws -> Int {
        try claim(writes.map(\.key.registration), lease: lease)
        return try reading(under: lease) {
            try OutcomeBatch(writes: writes, answered: answered).apply(to: $0, policy: policy).values.reduce(0, +)
        }
    }

    /// Takes the targets of `tokens`' registrations under `lease`, as a sweep's claim does before
    /// it pushes (only PostgreSQL writes an outcome under a lease; SQLite needs no claim).
    public func claim(_ tokens: [PushToken], lease: SweepLease = TestDatabase.lease) throws {
        guard fixture.isShared, !tokens.isEmpty else { return }
        let list = Set(tokens.map(\.hex)).map { "'\($0)'" }.joined(separator: ",")
        try reading { _ in }  // migrated
        try execute(
            "UPDATE push_targets SET lease_id = '\(lease.id)', lease_host = '\(lease.host)' WHERE registration_token IN (\(list))"
        )
    }

    /// The sweep's own folder for this database: `<db>.sweep` beside a SQLite file (the
    /// default), a folder of the test's for PostgreSQL (`LIVEACTIVITY_SWEEP_DIR`).
    public var sweepFolder: String { fixture.sweepFolder(self) }

    /// What a program the test starts needs to reach this database: `LIVEACTIVITY_DB`, and the
    /// sweep's folder where it is not the default.
    public var programEnvironment: [String: String] {
        var environment = ["LIVEACTIVITY_DB": setting]
        if fixture.isShared { environment["LIVEACTIVITY_SWEEP_DIR"] = sweepFolder }
        return environment
    }

    /// Records a run as a sweep does.
    public func record(_ summary: SweepSummary, host: String = "test-host") throws {
        try reading { try $0.record(summary, host: host, retention: .asOf(summary.startedAt)) }
    }

    public func statsReport(now: Int64) throws -> StatsReport { try reading { try StatsReport.gather($0, now: now) } }

    public func metricsSnapshot() throws -> MetricsSnapshot { try reading { try MetricsSnapshot.gather($0) } }

    public func history(_ prefix: String) throws -> DeviceHistory.Lookup {
        try reading { try DeviceHistory.lookup(prefix, in: $0) }
    }

    /// `body` on a sweep's connection of its own (under `lease` where the database is shared),
    /// closed after.
    public func reading<T>(under lease: SweepLease = TestDatabase.lease, _ body: (any SweepStatements) throws -> T) throws -> T {
        let connection = try sweep(under: lease)
        defer { connection.close() }
        return try body(connection)
    }

    /// The lease the tests' batches write under.
    public static let lease = SweepLease(host: "test-host", id: "test-lease", seconds: 120)

    struct UnexpectedAnswer: Error {}
}

/// A write lock a test holds (`TestDatabase.holdWriteLock`).
public final class WriteLockHolder: @unchecked Sendable {
    private let releasing: () throws -> Void
    init(_ release: @escaping () throws -> Void) { releasing = release }
    public func release() throws { try releasing() }
}

/// Raw access to a test's database, beside the engine's contract.
protocol RawDatabase: Sendable {
    func execute(_ sql: String) throws
    func rows(_ sql: String) throws -> [[String?]]
}
