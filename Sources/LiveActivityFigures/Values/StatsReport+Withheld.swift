import LiveActivityDomain

extension StatsReport {
    /// The wakes the cadence withheld (SPEC 5, "Cadence") over 24 h, 7 d and every run ever, each
    /// list per app, type, environment and reason in `WithheldWakes.Group.ordered`, without the
    /// empty ones: how much of the phones' budget the apps' reports saved.
    public struct Withheld: Sendable, Equatable {
        public var lastDay: [WithheldWakes] = []
        public var lastWeek: [WithheldWakes] = []
        public var lifetime: [WithheldWakes] = []

        public init(lastDay: [WithheldWakes] = [], lastWeek: [WithheldWakes] = [], lifetime: [WithheldWakes] = []) {
            self.lastDay = lastDay
            self.lastWeek = lastWeek
            self.lifetime = lifetime
        }

        /// Whether any run ever withheld a wake: where none did (no app reports its state), the
        /// figures show nothing of it, as before.
        public var isEmpty: Bool { lifetime.isEmpty && lastWeek.isEmpty && lastDay.isEmpty }

        /// The places any of the three lists holds, in order: the rows a table shows.
        public var places: [WithheldWakes.Place] {
            Set((lastDay + lastWeek + lifetime).map(\.group.place)).sorted(by: WithheldWakes.Place.ordered)
        }

        /// `list`'s count at `place` for `reason` (0 for none).
        public static func count(in list: [WithheldWakes], at place: WithheldWakes.Place, _ reason: Cadence.Withheld) -> Int64 {
            list.first { $0.group.place == place && $0.group.reason == reason }?.count ?? 0
        }
    }
}
