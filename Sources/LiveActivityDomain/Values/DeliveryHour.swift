/// The hours the delivery figures are kept by (SPEC 4, 7): an hour is Unix ms / 3,600,000, and
/// the figures of the last 7 days are kept.
public enum DeliveryHour {
    public static let milliseconds: Int64 = 3_600_000
    /// Hours kept behind the current one.
    public static let kept: Int64 = 7 * 24

    /// The hour `time` (Unix ms) falls in.
    public static func of(_ time: Int64) -> Int64 { time >= 0 ? time / milliseconds : (time - milliseconds + 1) / milliseconds }
}
