import LiveActivityDomain

/// The order the figures are presented in, decided once above the engines, which answer their
/// figure queries in no order: wakes first, then the kinds as `PushKind.all` lists them; the
/// default app first, then the others by name; activity types and environments as their
/// `allCases` list them. A name this build does not know (a newer build's, or planted) comes
/// after the known ones, by name, so every list has one order whatever engine read it.
public enum FigureOrder {
    /// A place in an order: the known value's position, then the name.
    public struct Key: Comparable, Sendable {
        var rank: Int
        var name: String

        public static func < (left: Key, right: Key) -> Bool { (left.rank, left.name) < (right.rank, right.name) }
    }

    public static func kind(_ name: String) -> Key { Key(rank: PushKind.all.firstIndex { $0.name == name } ?? .max, name: name) }

    public static func app(_ name: String) -> Key { Key(rank: AppName.isDefault(named: name) ? 0 : 1, name: name) }

    public static func activityType(_ name: String) -> Key {
        Key(rank: ActivityType.allCases.firstIndex { $0.rawValue == name } ?? .max, name: name)
    }

    public static func environment(_ name: String) -> Key {
        Key(rank: APNsEnvironment.allCases.firstIndex { $0.rawValue == name } ?? .max, name: name)
    }

    /// Plain text, by name.
    public static func name(_ name: String) -> Key { Key(rank: 0, name: name) }

    /// Whether `left`'s keys come before `right`'s, the first that differs deciding.
    public static func precedes(_ left: [Key], _ right: [Key]) -> Bool { left.lexicographicallyPrecedes(right) }
}

extension StatsReport.Group {
    /// Wakes first, then by kind, app, type and environment.
    public static func ordered(_ left: Self, _ right: Self) -> Bool {
        FigureOrder.precedes(left.orderKeys, right.orderKeys)
    }
    private var orderKeys: [FigureOrder.Key] {
        [
            FigureOrder.kind(kind.name), FigureOrder.app(app.rawValue), FigureOrder.activityType(activityType.rawValue),
            FigureOrder.environment(environment.rawValue),
        ]
    }
}

extension StatsReport.BackingOff {
    /// By environment, then kind.
    public static func ordered(_ left: Self, _ right: Self) -> Bool {
        FigureOrder.precedes(
            [FigureOrder.environment(left.environment.rawValue), FigureOrder.kind(left.kind.name)],
            [FigureOrder.environment(right.environment.rawValue), FigureOrder.kind(right.kind.name)])
    }
}

extension StatsReport.FaultTotals {
    /// By app, environment, the one push kind it stopped (none first), its kind and reason.
    public static func ordered(_ left: Self, _ right: Self) -> Bool {
        FigureOrder.precedes(left.orderKeys, right.orderKeys)
    }
    private var orderKeys: [FigureOrder.Key] {
        [
            FigureOrder.app(app.rawValue), FigureOrder.environment(environment.rawValue), FigureOrder.name(pushKind?.name ?? ""),
            FigureOrder.name(kind.rawValue), FigureOrder.name(reason),
        ]
    }
}

extension StatsReport.ReasonCount {
    /// Wakes first, then by kind, then reason: the lifetime list.
    public static func ordered(_ left: Self, _ right: Self) -> Bool {
        FigureOrder.precedes(
            [FigureOrder.kind(left.kind.name), FigureOrder.name(left.reason)],
            [FigureOrder.kind(right.kind.name), FigureOrder.name(right.reason)])
    }
}

extension StatsReport.SweepBucket {
    /// By start, then kind and app.
    public static func ordered(_ left: Self, _ right: Self) -> Bool {
        if left.start != right.start { return left.start < right.start }
        return FigureOrder.precedes(
            [FigureOrder.kind(left.kind.name), FigureOrder.app(left.app.rawValue)],
            [FigureOrder.kind(right.kind.name), FigureOrder.app(right.app.rawValue)])
    }
}

extension DeliveryReport.Window {
    /// By app, kind, then type.
    public static func ordered(_ left: Self, _ right: Self) -> Bool {
        FigureOrder.precedes(
            [
                FigureOrder.app(left.app.rawValue), FigureOrder.kind(left.kind.name),
                FigureOrder.activityType(left.activityType?.name ?? ""),
            ],
            [
                FigureOrder.app(right.app.rawValue), FigureOrder.kind(right.kind.name),
                FigureOrder.activityType(right.activityType?.name ?? ""),
            ])
    }
}

extension HostRun {
    /// By host name.
    public static func ordered(_ left: Self, _ right: Self) -> Bool { left.host < right.host }
}
