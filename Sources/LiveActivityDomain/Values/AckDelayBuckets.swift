/// The fixed histogram of ack delays (the time from APNs's 200 to the app's ack), shared by the
/// hourly figures, `stats` and the `liveactivity_wake_ack_delay_seconds` metric. Fixed, so an
/// hour's figures are a handful of counters and any window sums them; the median and 90th
/// percentile are read from it by interpolation inside a bucket.
public enum AckDelayBuckets {
    /// Upper bounds of the finite buckets, in seconds; one more bucket holds the rest.
    /// Finer below a few seconds, where a woken phone answers; up to the longest interval by default.
    public static let upperBoundsSeconds: [Double] = [0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600]
    /// Buckets in all (the last one unbounded); the schema has a column per bucket (`d0`...).
    public static var count: Int { upperBoundsSeconds.count + 1 }

    /// The bucket of a delay in milliseconds (a negative one, from a clock step, counts as 0).
    public static func index(ofMilliseconds delay: Int64) -> Int {
        let seconds = Double(max(0, delay)) / 1000
        return upperBoundsSeconds.firstIndex { seconds <= $0 } ?? upperBoundsSeconds.count
    }

    /// The `fraction` quantile (0.5 the median) of the delays counted in `buckets`, in seconds;
    /// nil when none were counted. Linear inside the bucket it falls in; the unbounded bucket
    /// answers its lower bound.
    public static func quantile(_ fraction: Double, of buckets: [Int64]) -> Double? {
        // Counts read back: a planted one saturates the sum rather than trap.
        let total = buckets.filter { $0 > 0 }.saturatedSum()
        guard total > 0 else { return nil }
        let rank = fraction * Double(total)
        var below: Int64 = 0
        for (index, count) in buckets.enumerated() where count > 0 {
            if Double(below.addingSaturated(count)) >= rank {
                let lower = index == 0 ? 0 : upperBoundsSeconds[index - 1]
                guard index < upperBoundsSeconds.count else { return lower }
                let within = (rank - Double(below)) / Double(count)
                return lower + (upperBoundsSeconds[index] - lower) * max(0, min(1, within))
            }
            below = below.addingSaturated(count)
        }
        return upperBoundsSeconds.last
    }
}
