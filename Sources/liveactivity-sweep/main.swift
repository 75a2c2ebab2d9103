// liveactivity-sweep: the one-shot run cron starts every minute (SPEC 5), and `stats` (SPEC 7).
//
// Exit codes: 0 a normal run (also when some pushes failed, or another sweep held the lock);
// 1 APNs reported a configuration fault; 2 a setting is missing or malformed; 3 the database
// is unusable.
import Foundation
import LiveActivityCore
import LiveActivitySweep

let program = "liveactivity-sweep"
// The responder (web user) and the sweep (key owner) share the database through their group:
// files either creates must stay group-writable and private to everyone else.
umask(0o007)

func fail(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data("\(program): \(message)\n".utf8))
    exit(code)
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    print(
        """
        usage: \(program)              run one sweep (cron runs it every minute)
               \(program) stats [--json]   registrations and sweep history
        Settings come from the environment and the file named by LIVEACTIVITY_CONFIG.
        """)
    exit(0)
}

let settings: Settings
let configuration: Configuration
do {
    settings = try Settings.fromProcess()
    configuration = try Configuration(settings: settings)
} catch {
    fail(error.description, code: 2)
}

func openDatabase() -> SQLiteConnection {
    do {
        let connection = try SQLiteConnection(path: configuration.databasePath, options: configuration.sqliteOptions)
        try Schema.migrate(connection)
        return connection
    } catch {
        fail("cannot use the database \(configuration.databasePath): \((error as? SQLiteError)?.message ?? "\(error)")", code: 3)
    }
}

switch arguments.first {
case "stats":
    guard FileManager.default.fileExists(atPath: configuration.databasePath) else {
        fail("no database at \(configuration.databasePath) (LIVEACTIVITY_DB)", code: 3)
    }
    let connection = openDatabase()
    do {
        let report = try StatsReport.gather(connection, now: configuration.clock.now())
        print(arguments.contains("--json") ? report.json : report.text)
    } catch {
        fail("cannot read the statistics: \((error as? SQLiteError)?.message ?? "\(error)")", code: 3)
    }

case nil:
    let client: APNsClientSettings
    let credentials: SweepCredentials
    do {
        client = try APNsClientSettings(settings: settings)
        credentials = try SweepCredentials(settings: settings)
    } catch {
        fail(error.description, code: 2)
    }
    let lock: SweepLock
    do {
        guard let taken = try SweepLock(databasePath: configuration.databasePath) else {
            print("\(program): another sweep is running (lock held); nothing to do")
            exit(0)
        }
        lock = taken
    } catch {
        fail(error.description, code: 3)
    }
    let connection = openDatabase()
    do {
        let store = SweepStore(connection: connection)
        let tokens = ProviderTokenCache(connection: connection, cacheKey: credentials.tokenCacheKey) { seconds in
            try credentials.issueToken(at: seconds)
        }
        let sender = CurlPushSender(settings: client, topic: credentials.bundleID)
        let sweep = Sweep(configuration: configuration, store: store, sender: sender, tokens: tokens) { line in
            FileHandle.standardError.write(Data("\(program): \(line)\n".utf8))
        }
        let summary = try sweep.run()
        print(summary.line)
        withExtendedLifetime(lock) {}
        if let fault = summary.configurationFault {
            fail("configuration fault: \(fault)", code: 1)
        }
    } catch let error as SQLiteError {
        fail("database error: \(error.message) (code \(error.code))", code: 3)
    } catch {
        fail("\(error)", code: 3)
    }

default:
    fail("unknown command \(arguments[0].prefix(40)); try --help", code: 2)
}
