import LiveActivityCore

/// What one answer comes to for its registration (SPEC section 5 step 6): what the sweep does
/// next, what it counts, and the line an operator should see, if any. Made by `OutcomeRules`.
public struct OutcomeDecision: Equatable, Sendable {
    /// What the sweep does with the answer.
    public enum Action: Equatable, Sendable {
        /// Write this in the next batch.
        case write(SweepStore.Write)
        /// A deletion for `reason` that the mass-deletion guard rules on when the sweep ends.
        case deleteUnlessGuarded(SweepStore.Write, reason: String)
        /// Sign a new provider token and send the push again.
        case retryWithNewToken
        /// Our key, team, topic or host is wrong: stop sending this sweep and keep everything.
        case stopSending(fault: String)
    }

    public var action: Action
    public var tally: SweepTally
    /// One line for the operator's log, when the answer deserves one.
    public var logLine: String?

    public init(_ action: Action, tally: SweepTally = SweepTally(), logLine: String? = nil) {
        self.action = action
        self.tally = tally
        self.logLine = logLine
    }
}
