// liveactivity-sweep: the one-shot run cron starts every minute (SPEC 5), and `stats` (SPEC 7).
//
// Exit codes: 0 a normal run (also when some pushes failed, or another sweep held the lock);
// 1 APNs reported a configuration fault; 2 a setting is missing or malformed; 3 the database
// is unusable.
import Foundation
import LiveActivityCore

// The responder (web user) and the sweep (key owner) share the database through their group:
// files either creates must stay group-writable and private to everyone else.
umask(0o007)

do {
    let command = try Command(arguments: Array(CommandLine.arguments.dropFirst()))
    if command == .help {
        print(Command.usage)
        exit(0)
    }
    let settings: Settings
    let configuration: Configuration
    do {
        settings = try Settings.fromProcess()
        configuration = try Configuration(settings: settings)
    } catch {
        throw CommandFailure.configuration(error.description)
    }
    switch command {
    case .help: break
    case .sweep: try SweepCommand.run(settings, configuration)
    case .stats(let json): try StatsCommand.run(configuration, json: json)
    }
} catch let failure as CommandFailure {
    printError(failure.message)
    exit(failure.exitCode)
}
