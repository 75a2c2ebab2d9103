/// Wakes the cadence did not send (SPEC 5, "Cadence": one for each tick a base interval would
/// have pushed), of one app, activity type and environment, for one reason: what a sweep counts,
/// a run records and `stats`, metrics and the status page show. The operator reads from it how
/// much of the phones' budget the app's reports saved.
public struct WithheldWakes: Sendable, Equatable {
    /// Where and why: the figures are kept per app, type, environment and reason.
    public struct Group: Hashable, Sendable {
        public var app: AppName
        public var activityType: ActivityType
        public var environment: APNsEnvironment
        public var reason: Cadence.Withheld

        public init(
            app: AppName = .defaultApp, activityType: ActivityType, environment: APNsEnvironment, reason: Cadence.Withheld
        ) {
            self.app = app
            self.activityType = activityType
            self.environment = environment
            self.reason = reason
        }

        /// Its app, type and environment: a row of a table whose columns are the reasons.
        public var place: Place { Place(app: app, activityType: activityType, environment: environment) }

        /// By place (`Place.ordered`), then the reasons in the order they are listed.
        public static func ordered(_ left: Group, _ right: Group) -> Bool {
            if left.place != right.place { return Place.ordered(left.place, right.place) }
            return left.reason.position < right.reason.position
        }
    }

    /// An app, activity type and environment.
    public struct Place: Hashable, Sendable {
        public var app: AppName
        public var activityType: ActivityType
        public var environment: APNsEnvironment

        public init(app: AppName = .defaultApp, activityType: ActivityType, environment: APNsEnvironment) {
            self.app = app
            self.activityType = activityType
            self.environment = environment
        }

        /// The default app first, then the others by name; within an app by type, then
        /// environment, each in the order it is listed.
        public static func ordered(_ left: Place, _ right: Place) -> Bool {
            if left.app != right.app { return left.app < right.app }
            return (left.activityType.position, left.environment.position)
                < (right.activityType.position, right.environment.position)
        }
    }

    public var group: Group
    public var count: Int64

    public init(_ group: Group, count: Int64) {
        self.group = group
        self.count = count
    }

    /// The counts of `groups` added up per group, without the empty ones, in `Group.ordered`.
    public static func listed(_ groups: some Sequence<(Group, Int64)>) -> [WithheldWakes] {
        var sums: [Group: Int64] = [:]
        for (group, count) in groups { sums[group, default: 0] = sums[group, default: 0].addingSaturated(count) }
        return sums.filter { $0.value > 0 }.keys.sorted(by: Group.ordered).map { WithheldWakes($0, count: sums[$0] ?? 0) }
    }
}

extension CaseIterable where Self: Equatable {
    /// Where the case stands in `allCases`: the order figures list it in.
    fileprivate var position: Int { Array(Self.allCases).firstIndex(of: self) ?? .max }
}
