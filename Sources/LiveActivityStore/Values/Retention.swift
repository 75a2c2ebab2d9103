import LiveActivityDomain

/// How long the run history and the hourly figures are kept (SPEC 4, 7): runs, their reasons and
/// faults for 30 days, the hourly delivery and ack figures for 7 (`DeliveryHour.kept`). Decided
/// here, once; an engine deletes what is older than the bounds it is given.
public struct Retention: Sendable, Equatable {
    /// Runs started before this (Unix ms) go, with their reasons and faults.
    public var runsBefore: Int64
    /// Hourly figures of hours before this (an hour number, `DeliveryHour`) go.
    public var hoursBefore: Int64

    public init(runsBefore: Int64, hoursBefore: Int64) {
        self.runsBefore = runsBefore
        self.hoursBefore = hoursBefore
    }

    /// Days the run history is kept.
    public static let runDays: Int64 = 30

    /// The bounds as of a run that started at `now` (Unix ms).
    public static func asOf(_ now: Int64) -> Retention {
        Retention(
            runsBefore: now.subtractingSaturated(runDays * 86_400_000), hoursBefore: DeliveryHour.of(now) - DeliveryHour.kept)
    }
}
