/// When a sweep's sending ends (SPEC 5, the time budget): nothing new is sent from `sendUntil`,
/// and every push in flight must have finished by `finishBy`. One value, made from the budget at
/// the start and handed down unchanged to the run, the sender and the APNs client, so the budget
/// is written in one place and a stop (SIGTERM) moves it for all of them at once.
public struct Deadline: Sendable, Equatable {
    /// Nothing new is sent from here on.
    public private(set) var sendUntil: ContinuousClock.Instant
    /// Pushes in flight must have ended by here; no push starts after it.
    public private(set) var finishBy: ContinuousClock.Instant
    /// How long pushes in flight may take once sending stopped.
    public let drain: Duration

    /// Sending until `sendUntil`, pushes in flight `drain` longer.
    public init(sendUntil: ContinuousClock.Instant, drain: Duration) {
        self.sendUntil = sendUntil
        self.finishBy = sendUntil + drain
        self.drain = drain
    }

    /// A stop asked for at `now`: nothing new from now, and what is in flight gets at most the
    /// drain from now (never more than it had).
    public mutating func stop(at now: ContinuousClock.Instant) {
        sendUntil = min(sendUntil, now)
        finishBy = min(finishBy, now + drain)
    }

    /// Whether nothing new may be sent at `now`.
    public func stopsSending(at now: ContinuousClock.Instant) -> Bool { now >= sendUntil }

    /// Whole milliseconds left at `now` until `finishBy` (0 or less once it passed).
    public func millisecondsLeft(at now: ContinuousClock.Instant) -> Int {
        let left = now.duration(to: finishBy).components
        return Int(left.seconds) * 1000 + Int(left.attoseconds / 1_000_000_000_000_000)
    }
}
