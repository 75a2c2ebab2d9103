import APNsStandIn
import Foundation
import LiveActivityDomain
import LiveActivityStore
import LiveActivitySweep
import TestSupport

/// A sweep's database with registrations put in directly, and the sweep run as cron runs it:
/// a separate process with its settings in the environment.
final class SweepFixture: @unchecked Sendable {
    let database: TestDatabase
    var folder: TemporaryDirectory { database.folder }
    let standIn: StandInStack
    /// `LIVEACTIVITY_DB` of the sweep the fixture runs.
    var databasePath: String { database.setting }

    /// A fresh database of `engine`.
    init(_ engine: TestEngine, standIn: StandInStack? = nil, standInEnvironment: [String: String] = [:]) throws {
        self.database = try TestDatabase(engine, label: "sweepdb")
        self.standIn = try standIn ?? StandInStack(environment: standInEnvironment)
    }

    /// A fixture over `database`, a test's own (a cluster it stops, restarts or fails over).
    init(database: TestDatabase, standIn: StandInStack? = nil) throws {
        self.database = database
        self.standIn = try standIn ?? StandInStack()
    }

    /// Registers `seeds` as the API would, `ago` milliseconds in the past; with `widgets`, each
    /// with a widget extension's token too (`widgetToken(seed)`).
    func register(
        _ seeds: some Sequence<Int>, type: ActivityType = .charging, environment: APNsEnvironment = .production, ago: Int64 = 0,
        widgets: Bool = false, widgetInterval: Int? = nil
    ) throws {
        let now = Clock().now() - ago
        for seed in seeds {
            try database.register(
                try PushToken(validating: sampleToken(seed)), type: type, environment: environment, now: now,
                expiresAt: now + 8 * 3_600_000, cap: 1_000_000,
                widget: widgets
                    ? NewRegistration.Widget(
                        token: try PushToken(validating: Self.widgetToken(seed)), requestedInterval: widgetInterval) : nil)
        }
    }

    /// The widget extension's token of `seed`'s registration: another token of the same shape.
    static func widgetToken(_ seed: Int) -> String { sampleToken(seed + 500_000) }

    /// Starts `liveactivity-sweep` as a process of its own (to signal it, or act during its run);
    /// its stdout and stderr go to `sweep.log` in the fixture's folder.
    func startSweep(_ extra: [String: String] = [:]) throws -> ChildProcess {
        var environment = sweepEnvironment()
        environment.merge(extra) { _, new in new }
        return try ChildProcess(product("liveactivity-sweep"), environment: environment, outputPath: folder.file("sweep.log"))
    }

    /// The sweep's settings as cron gives them for this fixture's database (on PostgreSQL also its
    /// folder), against `standIn` (the fixture's own by default).
    func sweepEnvironment(_ standIn: StandInStack? = nil) -> [String: String] {
        var environment = (standIn ?? self.standIn).sweepEnvironment(database: databasePath)
        environment.merge(database.programEnvironment) { _, new in new }
        return environment
    }

    /// Registrations with at least one delivered push.
    func provenCount() throws -> Int {
        Int(try database.scalar("SELECT count(*) FROM push_targets WHERE last_push_at IS NOT NULL") ?? -1)
    }

    /// The summary line's `key=value` for `key`, from a sweep's stdout.
    static func field(_ key: String, in output: String) -> String? {
        guard let line = output.split(separator: "\n").first(where: { $0.contains("liveactivity-sweep: sweep: ") }) else {
            return nil
        }
        return line.split(separator: " ").first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
    }

    /// Runs `liveactivity-sweep` with the stand-in's settings plus `extra`.
    /// `standardErrorPath`: a file its stderr goes to instead (`/dev/full`).
    func sweep(
        _ extra: [String: String] = [:], arguments: [String] = [], timeout: TimeInterval = 60, standardErrorPath: String? = nil
    ) throws -> CommandResult {
        var environment = sweepEnvironment()
        environment.merge(extra) { _, new in new }
        return try runCommand(
            product("liveactivity-sweep"), arguments, environment: environment, timeout: timeout,
            standardErrorPath: standardErrorPath)
    }

    func row(_ seed: Int) throws -> Registration? {
        try database.registration(try PushToken(validating: sampleToken(seed)))
    }

    func count() throws -> Int { try database.count() }

    /// Pushes the stand-in received for `seed`'s token (all of them when nil).
    func received(_ seed: Int? = nil) throws -> [StandInReceived] {
        try standIn.state().received(token: seed.map(sampleToken))
    }

    /// The cached provider token where the engine keeps it (a file in the sweep's folder on SQLite,
    /// the database on PostgreSQL), with the issue time in milliseconds.
    func cachedToken() throws -> (token: String, issuedAt: Int64)? {
        let credentials = try SweepCredentials(settings: Settings(values: sweepEnvironment()))
        let store = database.engine.providerTokens(sweepFolder: database.sweepFolder)
        guard let token = try store.load(cacheKey: credentials.tokenCacheKey) else { return nil }
        return (token.jwt, token.issuedAt * 1000)
    }
}

typealias StandInReceived = StandInState.Received

/// Decodes and verifies provider tokens with PyJWT and python3-cryptography from Debian - an
/// implementation this project did not write. Returns "alg kid iss iat" per token.
func verifyWithPyJWT(_ tokens: [String], privateKeyPath: String) throws -> [String] {
    let script = """
        import sys, jwt
        from cryptography.hazmat.primitives.serialization import load_pem_private_key
        key = load_pem_private_key(open(sys.argv[1], 'rb').read(), None).public_key()
        for token in sys.stdin.read().split():
            header = jwt.get_unverified_header(token)
            claims = jwt.decode(token, key, algorithms=['ES256'], options={'verify_iat': False})
            print(header['alg'], header['kid'], claims['iss'], claims['iat'], len(header), len(claims))
        """
    let result = try runCommand(
        "/usr/bin/python3", ["-c", script, privateKeyPath], input: Array(tokens.joined(separator: "\n").utf8))
    guard result.status == 0 else { throw SocketError("PyJWT rejected a token: \(result.stderr)") }
    return result.stdout.split(separator: "\n").map(String.init)
}
