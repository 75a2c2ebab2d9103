import Testing

@testable import LiveActivityDomain

/// Another clock read against ours: the midpoint of the quickest round trip stands for the
/// moment it was read, so a reading a busy host delayed does not move the clock.
@Suite struct ClockReadingTests {
    @Test func theQuickestReadingIsKept() {
        // The server's clock is 5,000 ms ahead. The second reading waited 400 ms for the host's
        // CPU after the server answered: its midpoint is 200 ms late.
        let readings = [
            ClockReading(before: 1_000, remote: 6_002, after: 1_004),
            ClockReading(before: 1_010, remote: 6_011, after: 1_410),
            ClockReading(before: 1_420, remote: 6_421, after: 1_422),
        ]
        #expect(readings[1].offset == 4_801, "the delayed one alone would be 199 ms off")
        #expect(ClockReading.closest(readings) == readings[2])
        #expect(ClockReading.closest(readings)?.offset == 5_000)
        #expect(ClockReading.closest(readings)?.local == 1_421)
    }

    @Test func theFirstOfEqualsAndNoneOfNone() {
        let readings = [
            ClockReading(before: 0, remote: 10, after: 2), ClockReading(before: 5, remote: 20, after: 7),
        ]
        #expect(ClockReading.closest(readings) == readings[0])
        #expect(ClockReading.closest([]) == nil)
    }

    @Test func nonsenseTimesDoNotTrap() {
        let reading = ClockReading(before: .max, remote: .min, after: .min)
        #expect(reading.roundTrip == .min)
        _ = reading.offset
        _ = reading.local
    }
}
