/// The operator's bounds on how often a push target is pushed (SPEC 3 `interval`,
/// `widgetInterval`, 5.3, 5.5, 6): a wake's shortest is its type's interval
/// (`LIVEACTIVITY_INTERVAL_<TYPE>`), another kind's its own setting (`LIVEACTIVITY_INTERVAL_WIDGETS`),
/// and `LIVEACTIVITY_INTERVAL_MAX` the longest an app may ask for. The responder answers with the
/// effective interval, the sweep pushes by it, an ack is matched by it and `history` shows it:
/// all apply this one rule, and no engine's SQL repeats it.
public struct IntervalPolicy: Sendable, Equatable {
    /// The push interval of each type the operator set, in seconds (others: the type's default).
    public var typeSeconds: [ActivityType: Int]
    /// The longest interval an app may ask for, in seconds.
    public var maximumSeconds: Int
    /// The shortest interval of each kind with a setting of its own (`PushKind.intervalSetting`)
    /// the operator set, in seconds (others: the kind's default).
    public var kindSeconds: [PushKind: Int] = [:]
    /// `LIVEACTIVITY_STRETCH_AFTER`: unchanged acks in a row before a wake target's interval
    /// doubles (SPEC 5, "Cadence"); 0 never stretches.
    public var stretchAfter = IntervalPolicy.defaultStretchAfter

    public static let defaultStretchAfter = 3
    /// What `LIVEACTIVITY_STRETCH_AFTER` may be.
    public static let stretchAfterRange = 0...1000

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

    /// The shortest interval of a target of `kind` whose registration is of `type`: the type's
    /// for a wake, the kind's own setting for another kind.
    public func floorSeconds(_ kind: PushKind, _ type: ActivityType) -> Int {
        guard let defaultSeconds = kind.defaultIntervalSeconds else { return seconds(type) }
        return kindSeconds[kind] ?? defaultSeconds
    }

    /// The interval that applies to a target of `kind` (its registration of `type`) that asked
    /// for `requested` seconds, clamped as `effectiveSeconds(_:requested:)` says.
    public func effectiveSeconds(_ kind: PushKind, _ type: ActivityType, requested: Int?) -> Int {
        let floor = floorSeconds(kind, type)
        guard let requested else { return floor }
        return max(floor, min(requested, maximumSeconds))
    }

    /// `effectiveSeconds(_:_:requested:)` in milliseconds.
    public func effectiveMilliseconds(_ kind: PushKind, _ type: ActivityType, requested: Int?) -> Int64 {
        Int64(effectiveSeconds(kind, type, requested: requested)) * 1000
    }

    /// When a target of `kind` pushed to `token` at `now`, with an effective interval of
    /// `interval` ms, is next due (SPEC 5.3, 5.5). A wake: one interval on. A spread kind
    /// (widgets): one interval plus the sweep's due slack, so it is never read before a whole
    /// interval passed, plus the target's own share of a tenth of the interval, fixed by its
    /// token, so devices registered at the same minute reload at different ones: consecutive
    /// pushes fall between I and 1.1 x I + 60 s apart while cron runs every minute.
    public static func nextPush(after now: Int64, interval: Int64, kind: PushKind, token: PushToken) -> Int64 {
        guard kind.spread else { return now.addingSaturated(interval) }
        return now.addingSaturated(interval).addingSaturated(SweepTiming.dueSlackMilliseconds)
            .addingSaturated(spread(of: token, interval: interval))
    }

    /// The target's share of a tenth of `interval` (ms), from 0 to interval / 10: the same for a
    /// token at every push (FNV-1a over its hex, not `hashValue`, which differs between runs).
    public static func spread(of token: PushToken, interval: Int64) -> Int64 {
        let width = max(0, interval / 10)
        guard width > 0 else { return 0 }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in token.hex.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return Int64(hash % UInt64(width + 1))
    }

    /// The cadence of a wake target of `type` that asked for `requested` seconds: its effective
    /// interval here is its base, which what the app reports then changes (`Cadence`).
    public func cadence(_ type: ActivityType, requested: Int?) -> Cadence {
        Cadence(
            base: effectiveMilliseconds(.wake, type, requested: requested), maximum: Int64(maximumSeconds) * 1000,
            stretchAfter: stretchAfter)
    }

    /// The interval of `type` when the app asked for none, in milliseconds.
    public func milliseconds(_ type: ActivityType) -> Int64 { Int64(seconds(type)) * 1000 }
}
