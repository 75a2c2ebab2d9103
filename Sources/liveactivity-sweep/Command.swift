import Foundation
import LiveActivityDomain
import LiveActivityStore

/// What the command line asks for.
enum Command: Equatable {
    case help
    /// One sweep, as cron runs it.
    case sweep
    /// The operator's snapshot, as text, `--json` or `--html` (the status page).
    case stats(StatsFormat)

    static let program = "liveactivity-sweep"

    static let usage = """
        usage: \(program)              run one sweep (cron runs it every minute)
               \(program) stats [--json|--html]   registrations and sweep history (--html: the status page)
        Settings come from the environment and the file named by LIVEACTIVITY_CONFIG.
        """

    init(arguments: [String]) throws(CommandFailure) {
        if arguments.contains("--help") || arguments.contains("-h") {
            self = .help
            return
        }
        switch arguments.first {
        case nil: self = .sweep
        case "stats": self = .stats(try StatsFormat(arguments: Array(arguments.dropFirst())))
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
    /// A setting is missing or malformed, or the command line is wrong (exit 2).
    static func configuration(_ message: String) -> CommandFailure { CommandFailure(message: message, exitCode: 2) }
    /// The database is unusable (exit 3).
    static func database(_ message: String) -> CommandFailure { CommandFailure(message: message, exitCode: 3) }
}

/// Opens and migrates the database: the one migration of a run.
func openDatabase(_ configuration: Configuration) throws(CommandFailure) -> SweepStore {
    do {
        return try SweepStore(path: configuration.databasePath, options: configuration.sqliteOptions, migrating: true)
    } catch {
        throw .database("cannot use the database \(configuration.databasePath): \(DatabaseFault(error)?.message ?? "\(error)")")
    }
}

/// One line on stderr, time-stamped and prefixed with the program's name (SPEC section 7).
func printError(_ line: String) {
    Log.line(Command.program, line)
}

/// One line on stdout (the run's summary), time-stamped like every other line: cron appends both
/// streams to one log file.
func printResult(_ line: String) {
    print(Log.stamped(Command.program, line))
}
