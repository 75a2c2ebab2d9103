import Foundation
import LiveActivityDomain
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityFigures
@testable import LiveActivityStore

/// The status page as text (SPEC 3): escaped, self-contained, no token, the alarm as the rules
/// say, the charts with their titles and tables. `IntegrationTests/StatusPageInBrowserTests`
/// renders it in Chromium from the running system.
@Suite struct StatusPageTests {
    let folder = TemporaryDirectory("page")
    let now: Int64 = 1_800_000_000_000

    /// The report of `populateStatsFigures` on `engine` (a real one: the fixture plants numbers
    /// with SQL).
    func populated(on engine: TestEngine) throws -> StatsReport {
        let store = try populateStatsFigures(TestDatabase(engine, label: "stats"), now: now)
        return try store.statsReport(now: now)
    }

    func emptyReport(on engine: TestEngine) throws -> StatsReport {
        return try TestDatabase(engine, label: "empty").statsReport(now: now)
    }

    /// The `data-value` of the element marked `data-figure="name"`.
    func figure(_ name: String, in page: String) -> String? {
        guard let range = page.range(of: "data-figure=\"\(name)\" data-value=\"") else { return nil }
        return String(page[range.upperBound...].prefix { $0 != "\"" })
    }

    @Test func escapingCoversMarkupQuotesAndControlCharacters() {
        #expect(HTMLText.escape("<b>&\"'</b>") == "&lt;b&gt;&amp;&quot;&#39;&lt;/b&gt;")
        #expect(HTMLText.escape("a\u{0}b\nc") == "a\u{FFFD}b\u{FFFD}c")
        #expect(HTMLText.escape("ServiceUnavailable") == "ServiceUnavailable")
    }

    @Test(arguments: TestEngine.real)
    func textFromTheDatabaseIsEscapedOnThePage(engine: TestEngine) throws {
        var report = try populated(on: engine)
        let hostile = "<script>alert('x')</script>&\"<img src=x>"
        report.day.failureReasons = [.init(reason: hostile, count: 3)]
        report.recentFaults[0].reason = hostile
        report.byTypeAndEnvironment[0].app = AppName(trusted: hostile)
        report.lastRunOutcome = RunOutcome(stored: hostile)
        let page = StatusPage.render(report)
        #expect(!page.contains("<script"))
        #expect(!page.contains("<img"))
        #expect(page.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&quot;&lt;img src=x&gt;"))
    }

    @Test(arguments: TestEngine.real)
    func thePageIsSelfContained(engine: TestEngine) throws {
        for page in [
            StatusPage.render(try populated(on: engine)), StatusPage.render(try emptyReport(on: engine)), StatusPage.unavailable,
        ] {
            #expect(page.hasPrefix("<!DOCTYPE html>"))
            for forbidden in ["<script", "http://", "https://", " src=", " href=", "url(", "@import", "<link", "<iframe"] {
                #expect(!page.lowercased().contains(forbidden), "\(forbidden)")
            }
            // No event handler attribute (onload=, onclick=...).
            #expect(page.range(of: #"\son[a-z]+\s*="#, options: [.regularExpression, .caseInsensitive]) == nil)
            #expect(page.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"))
        }
    }

    @Test(arguments: TestEngine.every)
    func anEmptyDatabaseGivesAPageWithTheNoSweepAlarmAndEmptyCharts(engine: TestEngine) throws {
        let page = StatusPage.render(try emptyReport(on: engine))
        #expect(page.contains("data-alarm=\"true\""))
        #expect(page.contains("data-figure=\"alarms\" data-value=\"noSweepRecorded\""))
        #expect(page.contains("Last sweep: none recorded."))
        #expect(page.contains("None registered."))
        #expect(page.contains("No acks yet."))
        #expect(page.components(separatedBy: "<svg role=\"img\"").count - 1 == 3)
        #expect(page.components(separatedBy: "No sweep ran in these 24 hours").count - 1 == 3)
        #expect(figure("active", in: page) == "0")
    }

    @Test(arguments: TestEngine.real)
    func theAlarmShowsExactlyWhenTheRulesSaySo(engine: TestEngine) throws {
        // The fixture's last run started 10 minutes before `now` with a configuration fault.
        let stale = StatusPage.render(try populated(on: engine))
        #expect(stale.contains("class=\"health alarm\" data-alarm=\"true\""))
        #expect(stale.contains("data-value=\"noSweepFinishedLately\""))
        #expect(stale.contains("data-value=\"lastSweepFailed\""))
        #expect(stale.contains("Alarm: the sweeps need attention"))

        var healthy = try populated(on: engine)
        healthy.day.lastRunFinishedAt = now - 60_000
        healthy.day.lastRunExitedNonZero = false
        let page = StatusPage.render(healthy)
        #expect(page.contains("class=\"health ok\" data-alarm=\"false\""))
        #expect(page.contains("Sweeps are running"))
        #expect(!page.contains("Alarm"))
    }

    /// SPEC 3: no token beyond its first 8 characters; this page shows none at all, also for the
    /// most-woken registrations (random tokens, so no run of zeros meets a timestamp by chance).
    @Test(arguments: TestEngine.real)
    func noTokenNorItsPrefixIsOnThePage(engine: TestEngine) throws {
        let store = try TestDatabase(engine, label: "tokens")
        let tokens = (1...4).map { testToken($0) }
        for token in tokens {
            try store.register(
                try PushToken(validating: token), type: .charging, environment: .production, now: now - 60_000,
                expiresAt: now + 3_600_000, cap: 100)
        }
        try store.execute("UPDATE push_targets SET push_count = 3, consecutive_failures = 1")
        try store.recountWakeups()
        var run = SweepSummary()
        run.startedAt = now - 30_000
        run.sent = 4
        try store.record(run)
        let report = try store.statsReport(now: now)
        #expect(report.topWakeups.count == 4)
        let page = StatusPage.render(report)
        for token in tokens {
            #expect(!page.contains(String(token.prefix(8))))
            // Nor any 9 characters of it, wherever they start.
            let characters = Array(token)
            for start in 0...(characters.count - 9) {
                #expect(!page.contains(String(characters[start..<start + 9])), "\(token.prefix(8)) at \(start)")
            }
        }
    }

    @Test(arguments: TestEngine.real)
    func theFiguresAreThoseOfTheReport(engine: TestEngine) throws {
        let report = try populated(on: engine)
        let page = StatusPage.render(report)
        #expect(figure("active", in: page) == "4")
        #expect(figure("byTypeAndEnvironment.charging/production", in: page) == "2")
        #expect(figure("backingOff.sandbox", in: page) == "1")
        #expect(figure("sweeps24h.sent", in: page) == "90")
        #expect(figure("sweeps7d.sent", in: page) == "190")
        #expect(figure("day.failureReasons.ServiceUnavailable", in: page) == "10")
        #expect(figure("day.removalReasons.Unregistered", in: page) == "3")
        #expect(figure("faults24h.sandbox/configuration/BadEnvironmentKeyInToken.pushes", in: page) == "40")
        #expect(figure("lastRunAt", in: page) == String(now - 600_000))
        // Each chart: an image with a title, and its numbers in a table.
        for id in ["active-chart", "sent-chart", "failed-chart"] {
            #expect(page.contains("<svg role=\"img\" aria-labelledby=\"\(id)-title\""))
            #expect(page.contains("<title id=\"\(id)-title\">"))
        }
        #expect(page.components(separatedBy: "<tr data-bucket=\"\(now - 600_000)\">").count - 1 == 3)
    }

    @Test(arguments: TestEngine.real)
    func acknowledgedWakesAreDrawnOnceThereAreAny(engine: TestEngine) throws {
        var report = try populated(on: engine)
        let hour = now - now % 3_600_000
        report.day.hours = [
            .init(
                start: hour - 3_600_000, answered: 40, acknowledged: 30, delayMedianMilliseconds: 900, delayP90Milliseconds: 4_000
            ),
            .init(start: hour, answered: 50, acknowledged: 0),
        ]
        let page = StatusPage.render(report)
        #expect(!page.contains("No acks yet."))
        #expect(page.contains("<svg role=\"img\" aria-labelledby=\"acks-chart-title\""))
        #expect(page.contains("<svg role=\"img\" aria-labelledby=\"delay-chart-title\""))
        #expect(page.contains("<circle class=\"s-p90\""), "one hour with delays: a dot")
        #expect(page.contains("<td class=\"n\">75.0%</td>"))
        #expect(page.contains("<td class=\"n\">900 ms</td><td class=\"n\">4.0 s</td>"))
    }

    @Test func numbersAreGroupedAndAxesRoundedUp() {
        #expect(HTMLText.count(100_000) == "100,000" && HTMLText.count(999) == "999" && HTMLText.count(-1234) == "-1,234")
        #expect(SVGChart.roundedUp(0) == 1 && SVGChart.roundedUp(3) == 3 && SVGChart.roundedUp(9) == 10)
        #expect(SVGChart.roundedUp(101) == 120 && SVGChart.roundedUp(250) == 250 && SVGChart.roundedUp(2_001) == 2_500)
        #expect(SVGChart.compact(12_000) == "12k" && SVGChart.compact(1_500_000) == "1.5M")
    }
}
