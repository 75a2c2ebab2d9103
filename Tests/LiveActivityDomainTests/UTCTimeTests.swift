import Foundation
import Testing

@testable import LiveActivityDomain

/// UTC calendar text without Foundation's formatters: the same text Foundation writes, at the
/// edges (the epoch, leap days, before 1970) and across two centuries of instants.
@Suite struct UTCTimeTests {
    @Test func theFormsTheLogsAndThePageUse() {
        #expect(UTCTime(milliseconds: 0).full == "1970-01-01 00:00:00 UTC")
        #expect(UTCTime(milliseconds: 0).iso8601 == "1970-01-01T00:00:00Z")
        #expect(UTCTime(milliseconds: 1_800_000_000_000).full == "2027-01-15 08:00:00 UTC")
        #expect(UTCTime(milliseconds: 951_782_400_000).iso8601 == "2000-02-29T00:00:00Z")
        #expect(UTCTime(milliseconds: -1).full == "1969-12-31 23:59:59 UTC")
        #expect(UTCTime(milliseconds: 1_800_000_000_000 + 3_723_000).clock == "09:02")
        #expect(UTCTime(milliseconds: 4_107_542_399_999).iso8601 == "2100-02-28T23:59:59Z", "2100 is no leap year")
        #expect(UTCTime(milliseconds: -62_135_596_800_000).date == "0001-01-01", "years keep four digits")
    }

    @Test func agreesWithFoundationAcrossTwoCenturies() {
        var generator = SystemRandomNumberGenerator()
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions = [.withInternetDateTime]
        // 1900 to 2100, and every day boundary of a leap-year February around it.
        var instants = (0..<1000).map { _ in Int64.random(in: -2_208_988_800_000...4_102_444_800_000, using: &generator) }
        instants += (0..<60).map { 1_709_164_800_000 + Int64($0) * 43_200_000 - 1 }
        for milliseconds in instants {
            let date = Date(timeIntervalSince1970: Double(milliseconds.dividedRoundingDown(by: 1000)))
            #expect(UTCTime(milliseconds: milliseconds).iso8601 == formatter.string(from: date), "\(milliseconds)")
        }
    }

    @Test func aLogLineStartsWithTheTimeNow() throws {
        let before = Clock().now()
        let line = Log.stamped("program", "message")
        let after = Clock().now()
        let stamp = try #require(line.split(separator: " ").first.map(String.init))
        #expect(line == stamp + " program: message")
        let candidates = Set(
            stride(from: before - before % 1000, through: after, by: 1000).map { UTCTime(milliseconds: $0).iso8601 })
        #expect(candidates.contains(stamp), "\(stamp) is not between \(before) and \(after)")
    }
}

extension Int64 {
    /// Floor division: the second an instant before 1970 falls in.
    fileprivate func dividedRoundingDown(by divisor: Int64) -> Int64 {
        self >= 0 ? self / divisor : (self - divisor + 1) / divisor
    }
}
