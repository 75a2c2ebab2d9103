#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Wall-clock time in Unix milliseconds, the unit every stored timestamp uses.
///
/// The offset lets tests move the clock of a process they start (`LIVEACTIVITY_TEST_CLOCK_OFFSET`,
/// seconds) without faketime, which would also shift the monotonic clock and stall timers.
public struct Clock: Sendable {
    public var offsetMilliseconds: Int64

    public init(offsetMilliseconds: Int64 = 0) { self.offsetMilliseconds = offsetMilliseconds }

    /// Now, in Unix milliseconds.
    public func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000 + offsetMilliseconds
    }
}
