import Foundation
import LiveActivityDomain
import LiveActivityFigures
import LiveActivityStore

/// `liveactivity-sweep history TOKEN [--json]`: one device's story (SPEC 7).
enum HistoryCommand {
    static func run(_ configuration: Configuration, prefix: String, json: Bool) throws(CommandFailure) {
        guard FileManager.default.fileExists(atPath: configuration.databasePath) else {
            throw .database("no database at \(configuration.databasePath) (LIVEACTIVITY_DB)")
        }
        let store = try openDatabase(configuration)
        let found: DeviceHistory.Lookup
        do {
            found = try store.history(prefix)
        } catch {
            throw .database("cannot read the history: \(DatabaseFault(error)?.message ?? "\(error)")")
        }
        // The operator typed the prefix; echo no more of it than a log would show.
        let shown = String(prefix.prefix(8)) + "…"
        switch found {
        case .notRegistered:
            throw .notFound("\(shown) is not registered")
        case .ambiguous(let count):
            throw .notFound("\(count) registrations start with \(shown); give more digits of the token")
        case .found(let history):
            let policy = configuration.intervalPolicy
            let expiry = configuration.expiryMilliseconds
            print(
                json
                    ? history.json(policy: policy, expiry: expiry)
                    : history.text(now: configuration.clock.now(), policy: policy, expiry: expiry))
        }
    }
}
