import LiveActivityDomain
import LiveActivityStore
import StoreEngines

/// What the command line asks for.
enum Command: Equatable {
    case help
    /// The release, as `debian/changelog` names it.
    case version
    /// One sweep, as cron runs it.
    case sweep
    /// The operator's snapshot, as text, `--json` or `--html` (the status page).
    case stats(StatsFormat)
    /// One device's story: its registration and last attempts, by a token or a prefix of it.
    case history(prefix: String, app: AppName?, json: Bool)

    static let program = "liveactivity-sweep"

    /// Whether the command applies the interval settings, and so reads them
    /// (docs/CONFIGURATION.md: a program ignores the settings it does not use).
    var readsIntervals: Bool {
        switch self {
        case .sweep, .history: true
        case .help, .version, .stats: false
        }
    }

    static let usage = """
        usage: \(program)              run one sweep (cron runs it every minute)
               \(program) stats [--json|--html]   registrations, sweep history, delivery (acked wake-ups);
                                     --html: the status page
               \(program) history TOKEN [--app NAME] [--json]
                                     one device: its registration and last 20 pushes, newest first,
                                     with APNs's answer, apns-id and when the app acknowledged it.
                                     TOKEN: the whole token or its first 8 or more hex digits.
                                     Exit 1 when no registration or several match (it says how
                                     many: give more digits), 2 when TOKEN is not 8+ hex digits.
               \(program) --version        print the program's version
               \(program) --help           show this help
        Settings come from the environment and the file named by LIVEACTIVITY_CONFIG
        (docs/CONFIGURATION.md, liveactivity.conf(5)). Exit status: 0 a normal run; 1 a
        configuration or provider fault of an environment, the mass-deletion guard held
        deletions, or the sweep's folder or lock is not its own; 2 a setting or the command
        line is wrong; 3 the database is unusable.
        """

    init(arguments: [String]) throws(CommandFailure) {
        if arguments.contains("--help") || arguments.contains("-h") {
            self = .help
            return
        }
        if arguments == ["--version"] {
            self = .version
            return
        }
        switch arguments.first {
        case nil: self = .sweep
        case "stats": self = .stats(try StatsFormat(arguments: Array(arguments.dropFirst())))
        case "history":
            var operands = Array(arguments.dropFirst().filter { $0 != "--json" })
            // `--app NAME`: the app of a token registered for several (SPEC 6).
            var app: AppName?
            if let flag = operands.firstIndex(of: "--app") {
                guard flag + 1 < operands.count, let name = AppName(operands[flag + 1]) else {
                    throw .configuration("history: --app needs an app name (a-z, 0-9 and -, up to 32); try --help")
                }
                app = name
                operands.removeSubrange(flag...(flag + 1))
            }
            guard operands.count == 1, let token = operands.first else {
                throw .configuration("history needs one TOKEN (its first 8 or more hex digits); try --help")
            }
            guard let prefix = DeviceHistory.prefix(token) else {
                throw .configuration(
                    "history: TOKEN must be \(DeviceHistory.shortestPrefix) to \(PushToken.maximumLength) hex digits (the token or its start)"
                )
            }
            self = .history(prefix: prefix, app: app, json: arguments.contains("--json"))
        case let other?: throw .configuration("unknown command \(other.prefix(40)); try --help")
        }
    }
}

/// Why a command stopped: one line for the operator and the exit code that goes with it.
struct CommandFailure: Error {
    /// nil when the line was already printed.
    var message: String?
    var exitCode: Int32

    /// APNs reported a configuration or provider fault, the guard held deletions, or the sweep's
    /// folder or lock is not its own (exit 1).
    static func fault(_ message: String?) -> CommandFailure { CommandFailure(message: message, exitCode: 1) }
    /// No single registration was found (`history`: none, or several for a prefix) (exit 1).
    static func notFound(_ message: String) -> CommandFailure { CommandFailure(message: message, exitCode: 1) }
    /// A setting is missing or malformed, or the command line is wrong (exit 2).
    static func configuration(_ message: String) -> CommandFailure { CommandFailure(message: message, exitCode: 2) }
    /// The database is unusable (exit 3).
    static func database(_ message: String) -> CommandFailure { CommandFailure(message: message, exitCode: 3) }
}

/// The engine `LIVEACTIVITY_DB` names; a value that is neither a path nor a URI it can use is a setting's fault.
func engine(_ configuration: Configuration) throws(CommandFailure) -> any StoreEngine {
    do {
        return try StoreEngines.engine(for: configuration)
    } catch {
        throw .configuration(error.description)
    }
}

/// Opens `engine`'s database with `open` (the one migration of a run); a fault is one line naming
/// the database (never a password): exit 2 when a setting is wrong, 3 when the database is unusable.
func openDatabase<Connection>(_ engine: any StoreEngine, _ open: () throws -> Connection) throws(CommandFailure) -> Connection {
    do {
        return try open()
    } catch {
        throw CommandFailure.database(error, doing: "use", engine)
    }
}

extension CommandFailure {
    /// A failure of the database while `doing` something: exit 2 for a fault of the settings, 3 else.
    static func database(_ error: any Error, doing action: String, _ engine: any StoreEngine) -> CommandFailure {
        let fault = StoreFault.of(error)
        let line =
            "cannot \(action) the database \(engine.location) (LIVEACTIVITY_DB): "
            + (fault.map { "\($0.cause): \($0.message); \($0.advice)" } ?? "\(error)")
        return fault?.isSetting == true ? .configuration(line) : .database(line)
    }
}

/// One line on stderr, time-stamped and prefixed with the program's name (docs/OPERATIONS.md, "Logs").
func printError(_ line: String) {
    Log.line(Command.program, line)
}

/// One line on stdout (the run's summary), time-stamped like every other line: cron appends both
/// streams to one log file.
func printResult(_ line: String) {
    print(Log.stamped(Command.program, line))
}
