import APNsHTTP2
import TestSupport

@testable import LiveActivityDomain
@testable import LiveActivityStore
@testable import LiveActivitySweep

/// The times the sweep's unit suites count in.
protocol SweepTimes {}

extension SweepTimes {
    var minute: Int64 { 60_000 }
    var t0: Int64 { 1_800_000_000_000 }
}

/// What the sweep's unit suites share: a database of the test's own on the engine the test takes
/// as its argument, the default configuration over it, and one sweep against a scripted sender at
/// a time of the test's choosing. A test makes one for its engine; the rest comes from here.
struct SweepFixture: SweepTimes {
    /// The app the scripted sender's pushes are for: its bundle id and who signs them.
    static let route = AppRoute(
        bundleID: "com.example.app", identity: SigningIdentity(teamID: "TEAM123456", keyID: "KEY1234567"))
    let database: TestDatabase
    /// How long the last `sweep` call took, in ms of the clock it ran on.
    private let lastSweepMilliseconds = LockedBox<Int64>(0)

    init(_ engine: TestEngine, label: String) throws { database = try TestDatabase(engine, label: label) }

    /// Whether `time`, written by the last sweep as its clock's now plus a wait, is `expected`
    /// (that wait from the sweep's `at`): the sweep's clock starts at `at` and runs as the real
    /// one does, so it wrote `expected` plus at most the sweep's own duration, however slow the
    /// machine (two busy cores and the other test pass made a sweep of 200 rows take seconds).
    func wroteAbout(_ time: Int64, _ expected: Int64) -> Bool {
        time >= expected && time <= expected + lastSweepMilliseconds.get() + 1
    }

    /// Whether every row of `seeds` is next due at `expected`, as the last sweep wrote it (`wroteAbout`).
    func allDue(_ seeds: some Sequence<Int>, at expected: Int64) throws -> Bool {
        try seeds.allSatisfy { seed in try row(seed).map { wroteAbout($0.nextPushAt, expected) } ?? false }
    }

    /// The default configuration, over this fixture's database.
    var configuration: Configuration {
        var configuration = Configuration()
        configuration.databasePath = database.setting
        configuration.sweepDirectory = database.sweepFolder
        return configuration
    }

    /// Registers the sample tokens of `seeds` at `time`, as the API does.
    func register(
        _ seeds: some Sequence<Int>, _ type: ActivityType = .charging, _ environment: APNsEnvironment = .production,
        interval: Int? = nil, at time: Int64, app: AppName = .defaultApp, device: DeviceState = .unknown
    ) throws {
        for seed in seeds {
            try database.register(
                try PushToken(validating: sampleToken(seed)), type: type, environment: environment, now: time,
                expiresAt: time + configuration.expiryMilliseconds, cap: 100_000, interval: interval, app: app, device: device)
        }
    }

    /// Registers the sample tokens of `seeds` (charging) in `environment` at `time`.
    func register(_ seeds: some Sequence<Int>, _ environment: APNsEnvironment, at time: Int64) throws {
        try register(seeds, .charging, environment, at: time)
    }

    func row(_ seed: Int) throws -> Registration? {
        try database.registration(try PushToken(validating: sampleToken(seed)))
    }

    func history(_ seed: Int) throws -> [PushAttempt] {
        guard case .found(let history) = try database.history(sampleToken(seed)) else { return [] }
        return history.attempts
    }

    /// Sets `seed`'s next push directly, as a hand edit or an earlier sweep would have (SQL: the
    /// real engines only).
    func setNextPush(_ seed: Int, _ time: Int64) throws {
        try database.execute("UPDATE push_targets SET next_push_at = \(time) WHERE push_token = '\(sampleToken(seed))'")
    }

    /// Runs one sweep at `time` (ms since epoch, via the clock offset) with `configuration` (this
    /// fixture's by default). `issued` counts the provider tokens signed; each one's JWT differs.
    func sweep(
        at time: Int64, _ sender: ScriptedSender, configuration: Configuration? = nil, issued: LockedBox<Int> = LockedBox(0),
        stopRequested: @escaping () -> Bool = { false }, duePageSize: Int = 1000, lookahead: Int? = nil,
        settingsFingerprint: String? = nil, routes: [AppName: AppRoute] = [.defaultApp: route],
        host: String = TestDatabase.lease.host, log: @escaping (String) -> Void = { _ in }
    ) throws -> SweepSummary {
        var configuration = configuration ?? self.configuration
        let started = Clock().now()
        defer { lastSweepMilliseconds.set(Clock().now() - started) }
        configuration.clock = Clock(offsetMilliseconds: time - started)
        let store = try database.sweep()
        defer { store.close() }
        let folder = try SweepFolder(path: database.sweepFolder)
        var caches: [SigningIdentity: ProviderTokenCache] = [:]
        for identity in Set(routes.values.map(\.identity)) {
            caches[identity] = ProviderTokenCache(
                store: database.engine.providerTokens(sweepFolder: folder.path), cacheKey: "test-\(identity.teamID)"
            ) { seconds in
                let count = issued.update {
                    $0 += 1
                    return $0
                }
                return ProviderToken(jwt: "jwt-\(seconds)-\(count)", issuedAt: seconds)
            }
        }
        return try Sweep(
            configuration: configuration, engine: database.engine, store: store, sender: sender,
            apps: SweepApps(routes: routes, tokens: caches),
            lease: .random(host: host, seconds: 120), clock: configuration.clock,
            settingsFingerprint: settingsFingerprint,
            stopRequested: stopRequested, duePageSize: duePageSize, lookahead: lookahead, log: log
        ).run()
    }
}
