import Foundation
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityFigures
@testable import LiveActivityStore

/// `stats` and `stats --json` show delivery per type over 24 h and 7 d (SPEC 7, issue 16), on
/// every engine (the test's argument).
@Suite struct DeliveryStatsTests {
    let folder = TemporaryDirectory("delivery")
    let now: Int64 = 1_800_000_000_000 - 1_800_000_000_000 % 3_600_000 + 30 * 60_000

    @Test(arguments: TestEngine.every)
    func theFiguresAreThoseOfThePushesAndAcks(engine: TestEngine) throws {
        let store = try populateDeliveryFigures(TestDatabase(engine, label: "delivery"), now: now)
        let report = try store.statsReport(now: now)
        for windows in [report.delivery.lastDay, report.delivery.lastWeek] {
            #expect(windows.map(\.activityType?.name) == ["charging", "debug"])
            let charging = windows[0]
            #expect(charging.delivered == 10 && charging.acked == 8 && charging.registrationHours == 10)
            #expect(charging.ackedShare == 0.8)
            #expect(charging.delayMedian.map { abs($0 - 3.0) < 1e-9 } == true, "\(String(describing: charging.delayMedian))")
            #expect(charging.delayP90.map { abs($0 - 14.0) < 1e-9 } == true, "\(String(describing: charging.delayP90))")
            #expect(charging.delaySumMilliseconds == deliveryFixtureDelays.reduce(0, +))
            #expect(windows[1].delivered == 1 && windows[1].acked == 0)
        }
        #expect(report.delivery.acksLastDay == [.matched: 8, .duplicate: 1, .unmatched: 1])
        #expect(report.delivery.acksLifetime == [.matched: 8, .duplicate: 1, .unmatched: 1])

        let text = report.text
        #expect(
            text.contains(
                "Delivery over 24 h, charging: 10 answered 200, 8 acked (80.0%), delay median 3.0 s / p90 14.0 s, per registration-hour 1.0 pushes and 0.8 acked wakes (Apple advises 2-3)"
            ), "\(text)")
        #expect(text.contains("Delivery over 7 d, debug: 1 answered 200, 0 acked (0.0%)"))
        #expect(text.contains("Acks over 24 h: matched 8, duplicate 1, unmatched 1"))

        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        let delivery = try #require(json["delivery"] as? [String: Any])
        let day = try #require(delivery["24h"] as? [String: Any])
        let types = try #require(day["byType"] as? [[String: Any]])
        #expect(types.first?["delivered"] as? Int == 10 && types.first?["acked"] as? Int == 8)
        #expect(types.first?["ackedShare"] as? Double == 0.8)
        #expect(types.first?["delayMedianSeconds"] as? Double == 3.0 && types.first?["delayP90Seconds"] as? Double == 14.0)
        #expect((day["acks"] as? [String: Int]) == ["matched": 8, "duplicate": 1, "unmatched": 1])
        #expect((delivery["advisedPerHour"] as? [Int]) == [2, 3])
    }

    /// Issue 26 point 8: the page's share divides the acks of the pushes APNs answered in an hour
    /// by the 200s of that same hour, whatever hour the run that sent them started in (here the
    /// hour before: the old page filed its 200s there and showed 8 acks of 0).
    @Test(arguments: TestEngine.every)
    func theStatusPagesWakeHoursCarryTheAcksOfTheHoursPushes(engine: TestEngine) throws {
        let store = try populateDeliveryFigures(TestDatabase(engine, label: "delivery"), now: now)
        var run = SweepSummary()
        run.startedAt = now - 70 * 60_000
        run.sent = 11
        try store.record(run)
        let hours = try store.statsReport(now: now).day.hours
        #expect(hours.count == 1, "\(hours)")
        let hour = try #require(hours.last)
        #expect(hour.start == (now - 10 * 60_000) / 3_600_000 * 3_600_000)
        #expect(hour.answered == 11 && hour.acknowledged == 8)
        #expect(hour.delayMedianMilliseconds == 3000 && hour.delayP90Milliseconds == 14_000)
    }

    @Test(arguments: TestEngine.every)
    func anHourOlderThanADayLeavesThe24HourWindowAndStaysInTheWeek(engine: TestEngine) throws {
        let store = try populateDeliveryFigures(TestDatabase(engine, label: "delivery"), now: now)
        let report = try store.statsReport(now: now + 24 * 3_600_000)
        #expect(report.delivery.lastDay[0].delivered == 0 && report.delivery.lastWeek[0].delivered == 10)
        #expect(report.delivery.acksLastDay[.matched] == 0 && report.delivery.acksLastWeek[.matched] == 8)
        let gone = try store.statsReport(now: now + 7 * 24 * 3_600_000)
        #expect(gone.delivery.lastWeek[0].delivered == 0 && gone.delivery.acksLifetime[.matched] == 8)
    }
}
