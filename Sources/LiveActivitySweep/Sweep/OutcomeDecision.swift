import LiveActivityDomain

/// What one answer comes to for its registration (SPEC section 5 step 6): what the sweep does
/// next and what it counts. Made by `OutcomeRules`. No answer earns a log line of its own: the
/// summary counts reasons, and a fault is one line for its whole environment.
public struct OutcomeDecision: Equatable, Sendable {
    /// What the sweep does with the answer.
    public enum Action: Equatable, Sendable {
        /// Write this in the next batch.
        case write(OutcomeWrite)
        /// A deletion for `reason` that the mass-deletion guard rules on when the sweep ends.
        case deleteUnlessGuarded(OutcomeWrite, reason: String)
        /// Send the push again, once, with a newly signed provider token (renewed once a sweep).
        /// The answer is not final: the guard and the counts wait for the retry's.
        case retryWithNewToken
        /// The answer is the same for every push to this environment: stop sending to it this
        /// sweep. The row is one the fault touched (`OutcomeRules.touched`).
        case stopEnvironment(SweepFault)
    }

    public var action: Action
    public var tally: SweepTally

    /// Whether this is the push's last answer this sweep (all but a retry's first).
    public var isFinal: Bool { action != .retryWithNewToken }

    public init(_ action: Action, tally: SweepTally = SweepTally()) {
        self.action = action
        self.tally = tally
    }
}
