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
        /// Sign a new provider token and send the push again.
        case retryWithNewToken
        /// The answer is the same for every push to this environment: stop sending to it this
        /// sweep. The row is one the fault touched (`OutcomeRules.touched`).
        case stopEnvironment(SweepFault)
    }

    public var action: Action
    public var tally: SweepTally

    public init(_ action: Action, tally: SweepTally = SweepTally()) {
        self.action = action
        self.tally = tally
    }
}
