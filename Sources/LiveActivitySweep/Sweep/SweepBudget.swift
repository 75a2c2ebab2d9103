import LiveActivityDomain

/// The time a sweep may take (SPEC 5, `LIVEACTIVITY_SWEEP_BUDGET`): past `seconds` nothing new is
/// sent, and pushes in flight get `drainSeconds` more to finish, so with cron starting a sweep
/// every minute the run ends well inside its minute and no scheduler kills it mid-write.
public struct SweepBudget: Sendable, Equatable {
    /// Seconds from the start after which nothing new is sent.
    public var seconds = 50
    /// Seconds pushes in flight may take after that (their timeouts are cut to it).
    public static let drainSeconds = 5

    /// The default budget.
    public init() {}

    public init(seconds: Int) { self.seconds = seconds }

    /// Reads `LIVEACTIVITY_SWEEP_BUDGET`: 1 to 55 seconds, so budget and drain fit in a minute.
    public init(settings: Settings) throws(ConfigurationError) {
        if let seconds = try settings.integer("LIVEACTIVITY_SWEEP_BUDGET", in: 1...55) { self.seconds = seconds }
    }

    /// The one deadline of a sweep that started at `start`: what the run, the sender and the APNs
    /// client all go by.
    public func deadline(startingAt start: ContinuousClock.Instant) -> Deadline {
        Deadline(sendUntil: start + .seconds(seconds), drain: .seconds(Self.drainSeconds))
    }
}
