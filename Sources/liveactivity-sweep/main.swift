// liveactivity-sweep: the one-shot run cron starts every minute, `stats` and `history`
// (docs/OPERATIONS.md: "The sweep, run by run", "stats", "history").
//
// Exit codes: 0 a normal run (also when some pushes failed, APNs was unreachable, the time budget
// ran out, SIGTERM stopped it, or another sweep held the lock); 1 a configuration or provider
// fault of an environment, the mass-deletion guard held deletions, the sweep's folder or lock
// is not its own (another user made or holds it), or something was due and libcurl or libcrypto
// could not be loaded; 2 a setting is missing or malformed (or
// `history`'s TOKEN is not 8+ hex digits); 3 the database is unusable. `history` exits 1 when no
// registration, or more than one, matches its TOKEN.
import Glibc
import LiveActivityDomain
import LiveActivitySweep

// The responder (web user) and the sweep (key owner) share the database through their group:
// files either creates must stay group-writable and private to everyone else.
umask(0o007)
// A closed stdout or stderr (a pipe whose reader went away) must cost the line, not the process
// and the outcomes it has yet to write; libcurl sends with MSG_NOSIGNAL on its own.
signal(SIGPIPE, SIG_IGN)

do {
    let command = try Command(arguments: Array(CommandLine.arguments.dropFirst()))
    if command == .help {
        print(Command.usage)
        exit(0)
    }
    if command == .version {
        print(ReleaseVersion.line(program: Command.program))
        exit(0)
    }
    let settings: Settings
    var configuration: Configuration
    do {
        settings = try Settings.fromProcess()
        configuration = try Configuration(settings: settings)
        if command.readsIntervals { try configuration.readPushIntervals(settings) }
        if command == .sweep {
            try configuration.readSweepSettings(settings)
            try configuration.readApps(settings)
        }
    } catch {
        throw CommandFailure.configuration(error.description)
    }
    switch command {
    case .help, .version: break
    case .sweep:
        StopRequest.install()
        try SweepCommand.run(settings, configuration)
    case .stats(let format): try StatsCommand.run(configuration, format: format)
    case .history(let prefix, let app, let json): try HistoryCommand.run(configuration, prefix: prefix, app: app, json: json)
    }
} catch let failure as CommandFailure {
    if let message = failure.message { printError(message) }
    exit(failure.exitCode)
}
