/// One reading of another clock (a database server's) against a local one: the local time
/// before the question was asked, the answer, and the local time after. The answer was read at
/// some moment between the two; taking the midpoint is off by at most half the round trip, so of
/// several readings the one with the shortest round trip is the closest (as NTP filters its
/// samples): a reading that a busy host delayed by 400 ms would put the clock off by up to 200,
/// enough to stamp an ack before the push it answers.
public struct ClockReading: Sendable, Equatable {
    /// Local milliseconds when the question went out, and when the answer came.
    public var before: Int64
    public var after: Int64
    /// What the other clock said (ms).
    public var remote: Int64

    public init(before: Int64, remote: Int64, after: Int64) {
        self.before = before
        self.remote = remote
        self.after = after
    }

    /// How long the reading took (local ms).
    public var roundTrip: Int64 { after.subtractingSaturated(before) }
    /// The local time the answer stands for: the midpoint.
    public var local: Int64 { before.addingSaturated(roundTrip / 2) }
    /// How far the other clock is ahead of the local one.
    public var offset: Int64 { remote.subtractingSaturated(local) }

    /// How many readings a measure takes: one delayed reading is common on a shared host, three
    /// in a row rare, and each costs a round trip.
    public static let readingsPerMeasure = 3

    /// The reading with the shortest round trip (the first of equals); nil for none.
    public static func closest(_ readings: [ClockReading]) -> ClockReading? {
        readings.min { $0.roundTrip < $1.roundTrip }
    }
}
