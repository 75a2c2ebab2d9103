import Foundation
import LiveActivityDomain
import LiveActivityFigures
import LiveActivityStore

/// `liveactivity-sweep stats [--json|--html]`: the operator's snapshot of SPEC section 7, and
/// the status page of section 3 from the same figures.
enum StatsCommand {
    static func run(_ configuration: Configuration, format: StatsFormat) throws(CommandFailure) {
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
        switch format {
        case .text: print(report.text)
        case .json: print(report.json)
        case .html: print(StatusPage.render(report), terminator: "")
        }
    }
}
