import LiveActivityDomain

/// The cadence columns of a push target (SPEC 5, "Cadence"), as every engine stores them: the
/// device state the app last reported (`activities`, `background_refresh`, `low_power` 0 or 1,
/// each NULL until said) and `unchanged_acks`. Only wake targets use them; a widgets target keeps
/// NULLs and 0.
public enum CadenceColumns {
    public static let list = "activities, background_refresh, low_power, unchanged_acks"
    /// How many columns `list` names.
    public static let count: Int32 = 4
}

extension CadenceState {
    /// From the four `CadenceColumns` starting at `first`. Read back leniently (values read back
    /// are input): a count out of range or a word this build does not know is "not said", a
    /// streak is held to `0...1_000_000`; none is a fault, since the base cadence is always safe.
    public init(stored row: some StoredRow, from first: Int32) {
        let activities = row.optionalInt(first).flatMap { DeviceState.activityRange.contains(Int(clamping: $0)) ? Int($0) : nil }
        let refresh = row.text(first + 1).flatMap(BackgroundRefresh.init(rawValue:))
        let lowPower = row.optionalInt(first + 2).map { $0 != 0 }
        self.init(
            device: DeviceState(activities: activities, backgroundRefresh: refresh, lowPower: lowPower),
            unchangedAcks: Int(min(max(row.int(first + 3), 0), 1_000_000)))
    }

    /// What an engine binds for the four columns, in order: each nil where not said.
    public var storedValues: (activities: Int64?, backgroundRefresh: String?, lowPower: Int64?, unchangedAcks: Int64) {
        (
            device.activities.map(Int64.init), device.backgroundRefresh?.rawValue, device.lowPower.map { $0 ? 1 : 0 },
            Int64(unchangedAcks)
        )
    }
}
