import Glibc
import LiveActivityDomain
import LiveActivityFigures
import LiveActivityStore

/// `liveactivity-sweep history TOKEN [--json]`: one device's story (SPEC 7).
enum HistoryCommand {
    static func run(_ configuration: Configuration, prefix: String, app: AppName?, json: Bool) throws(CommandFailure) {
        let engine = try engine(configuration)
        let store = try openDatabase(engine) { try engine.openExisting() }
        defer { store.close() }
        let found: DeviceHistory.Lookup
        do {
            found = try DeviceHistory.lookup(prefix, app: app, in: store)
        } catch {
            throw CommandFailure.database(error, doing: "read the history from", engine)
        }
        // The operator typed the prefix; echo no more of it than a log would show.
        let shown = String(prefix.prefix(8)) + "…"
        switch found {
        case .notRegistered:
            throw .notFound("\(shown) is not registered" + (app.map { " for app \($0)" } ?? ""))
        case .severalApps(let apps):
            throw .notFound(
                "\(shown) is registered for apps \(apps.map(\.rawValue).joined(separator: ", ")); name one with --app NAME")
        case .ambiguous(let count):
            throw .notFound("\(count) registrations start with \(shown); give more digits of the token")
        case .found(let history):
            let policy = configuration.intervalPolicy
            let expiry = configuration.expiryMilliseconds
            let now = configuration.clock.movedToDatabase(of: store).now()
            print(
                json
                    ? history.json(policy: policy, expiry: expiry, now: now)
                    : history.text(now: now, policy: policy, expiry: expiry))
        }
    }
}
