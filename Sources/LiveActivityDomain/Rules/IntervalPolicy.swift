/// The operator's bounds on how often a registration is pushed (SPEC 3 `interval`, 5.3, 6): the
/// type's interval (`LIVEACTIVITY_INTERVAL_<TYPE>`) is the shortest an app may ask for, and
/// `LIVEACTIVITY_INTERVAL_MAX` the longest. The responder answers with the effective interval,
/// the sweep pushes by it, an ack is matched by it and `history` shows it: all apply this one
/// rule, and no engine's SQL repeats it.
public struct IntervalPolicy: Sendable, Equatable {
    /// The push interval of each type the operator set, in seconds (others: the type's default).
    public var typeSeconds: [ActivityType: Int]
    /// The longest interval an app may ask for, in seconds.
    public var maximumSeconds: Int

    /// What an app may ask for (SPEC 3): whole seconds from 1 to a day.
    public static let requestable = 1...86_400
    public static let defaultMaximumSeconds = 3600

    public init(typeSeconds: [ActivityType: Int] = [:], maximumSeconds: Int = defaultMaximumSeconds) {
        self.typeSeconds = typeSeconds
        self.maximumSeconds = maximumSeconds
    }

    /// The interval of `type` when the app asked for none.
    public func seconds(_ type: ActivityType) -> Int { typeSeconds[type] ?? type.defaultIntervalSeconds }

    /// The interval that applies to a registration of `type` that asked for `requested` seconds:
    /// clamped to [the type's interval, the maximum]; the type's bound wins should the operator
    /// set the maximum below it (never pushed more often than the type allows). A stored value
    /// out of the requestable range (a row written by hand) is clamped like any other.
    public func effectiveSeconds(_ type: ActivityType, requested: Int?) -> Int {
        let floor = seconds(type)
        guard let requested else { return floor }
        return max(floor, min(requested, maximumSeconds))
    }

    /// `effectiveSeconds` in milliseconds, the unit of stored times.
    public func effectiveMilliseconds(_ type: ActivityType, requested: Int?) -> Int64 {
        Int64(effectiveSeconds(type, requested: requested)) * 1000
    }

    /// The interval of `type` when the app asked for none, in milliseconds.
    public func milliseconds(_ type: ActivityType) -> Int64 { Int64(seconds(type)) * 1000 }
}
