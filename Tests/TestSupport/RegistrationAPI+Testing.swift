import LiveActivityDomain
import LiveActivityStore
import RegistrationService

extension RegistrationAPI {
    /// The API over `database` as the responder runs it: a writer of its own on the database's
    /// engine, and `configuration`'s settings with `LIVEACTIVITY_DB` set to the database.
    public convenience init(
        database: TestDatabase, configuration: Configuration = Configuration(), faults: FaultLog = FaultLog(),
        diagnosticsLimit: DiagnosticsLimit = DiagnosticsLimit(), elapsed: MonotonicClock = MonotonicClock(),
        log: @escaping (String) -> Void = { _ in }
    ) {
        var configuration = configuration
        configuration.databasePath = database.setting
        self.init(
            configuration: configuration, writer: RegistrationWriter(engine: database.engine), location: database.engine.location,
            faults: faults, diagnosticsLimit: diagnosticsLimit, elapsed: elapsed, log: log)
    }
}
