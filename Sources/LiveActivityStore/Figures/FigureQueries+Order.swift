import LiveActivityDomain
import LiveActivityFigures

extension RunReason {
    /// The most counted first, then by reason and kind: the day's reasons as the page lists them.
    public static func ordered(_ left: Self, _ right: Self) -> Bool {
        if left.count != right.count { return left.count > right.count }
        return FigureOrder.precedes(
            [FigureOrder.name(left.reason), FigureOrder.name(left.kind.name)],
            [FigureOrder.name(right.reason), FigureOrder.name(right.kind.name)])
    }
}

extension DeliveryHourFigures {
    /// By hour, then app.
    public static func ordered(_ left: Self, _ right: Self) -> Bool {
        if left.hour != right.hour { return left.hour < right.hour }
        return FigureOrder.app(left.app.rawValue) < FigureOrder.app(right.app.rawValue)
    }
}
