import Foundation
import LiveActivityDomain
import LiveActivityFigures
import LiveActivityStore

/// `liveactivity-sweep stats [--json]`: the operator's snapshot of SPEC section 7.
enum StatsCommand {
    static func run(_ configuration: Configuration, json: Bool) throws(CommandFailure) {
        guard FileManager.default.fileExists(atPath: configuration.databasePath) else {
            throw .database("no database at \(configuration.databasePath) (LIVEACTIVITY_DB)")
        }
        let store = try openDatabase(configuration)
        let report: StatsReport
        do {
            report = try store.statsReport(now: configuration.clock.now())
        } catch {
            throw .database("cannot read the statistics: \(DatabaseFault(error)?.message ?? "\(error)")")
        }
        print(json ? report.json : report.text)
    }
}
