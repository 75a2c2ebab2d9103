import Glibc
import LiveActivityDomain
import LiveActivityFigures
import LiveActivityStore

/// `liveactivity-sweep stats [--json|--html]`: the operator's snapshot of SPEC section 7, and
/// the status page of section 3 from the same figures.
enum StatsCommand {
    static func run(_ configuration: Configuration, format: StatsFormat) throws(CommandFailure) {
        let engine = try engine(configuration)
        let store = try openDatabase(engine) { try engine.openExisting() }
        defer { store.close() }
        let report: StatsReport
        do {
            report = try StatsReport.gather(store, now: configuration.clock.movedToDatabase(of: store).now())
        } catch {
            throw CommandFailure.database(error, doing: "read the statistics from", engine)
        }
        switch format {
        case .text: print(report.text)
        case .json: print(report.json)
        case .html: print(StatusPage.render(report), terminator: "")
        }
    }
}
