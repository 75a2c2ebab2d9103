#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Milliseconds on the host's monotonic clock (`CLOCK_MONOTONIC`): for how long something has
/// lasted, never for when it happened. A step of the wall clock (NTP, an operator's `date`) does
/// not move it, so a rate or a bound measured on it holds across the step, where one measured on
/// `Clock` is silenced for as long as the clock went back, or cut short by as much as it jumped.
///
/// The offset lets a test stand for a later moment without waiting for it.
public struct MonotonicClock: Sendable {
    public var offsetMilliseconds: Int64

    public init(offsetMilliseconds: Int64 = 0) { self.offsetMilliseconds = offsetMilliseconds }

    /// Now, in milliseconds since an arbitrary start (the host's boot).
    public func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000 + offsetMilliseconds
    }
}
