/// When a registration is due (SPEC 5.3): cron runs the sweep every minute with some jitter, so a
/// registration counts as due when its next push is at most this far ahead, and consecutive
/// pushes land within I - 30 s and I + 60 s of each other. The sweep selects by it; an ack that
/// comes for a due registration waits for its push (`AckRule.waits`).
public enum SweepTiming {
    public static let dueSlackMilliseconds: Int64 = 30_000
}
