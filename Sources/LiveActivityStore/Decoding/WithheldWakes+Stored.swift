import LiveActivityDomain

extension WithheldWakes {
    /// The columns every engine's withheld figures read, in the decoder's order (the count last:
    /// a sum, or a total as kept).
    public static let storedColumns = "app, activity_type, environment, reason"

    /// Withheld wakes from a row of `storedColumns` and a count. A row this build cannot use (a
    /// type, environment or reason it does not know: a newer build's) is left out, as is a count
    /// below 1; values read back are input, so the count is held to `StoredValue.wakeups`.
    public init?(stored row: some StoredRow) {
        guard let app = row.text(0).flatMap(AppName.init), let type = row.text(1).flatMap(ActivityType.init(rawValue:)),
            let environment = row.text(2).flatMap(APNsEnvironment.init(name:)),
            let reason = row.text(3).flatMap(Cadence.Withheld.init(rawValue:))
        else { return nil }
        let count = min(max(row.int(4), 0), StoredValue.wakeups.upperBound)
        guard count > 0 else { return nil }
        self.init(Group(app: app, activityType: type, environment: environment, reason: reason), count: count)
    }
}
