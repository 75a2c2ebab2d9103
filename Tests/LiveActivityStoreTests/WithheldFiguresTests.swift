import Foundation
import LiveActivityFigures
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore

/// The wakes the cadence withheld (SPEC 5, "Cadence"), as every engine keeps them: per app, type,
/// environment and reason, over 24 h, 7 d and every run (a lifetime total pruning never lowers),
/// in the domain's order, and shown alike by `stats` (text and JSON), metrics and the page.
@Suite struct WithheldFiguresTests {
    let day: Int64 = 86_400_000
    let now: Int64 = 1_800_000_000_000

    typealias Group = WithheldWakes.Group

    func run(at time: Int64, _ withheld: [Group: Int]) -> SweepSummary {
        var summary = SweepSummary()
        summary.startedAt = time
        summary.sent = 1
        summary.withheld = withheld
        return summary
    }

    let charging = Group(activityType: .charging, environment: .production, reason: .noActivity)
    var chargingStretched: Group { Group(activityType: .charging, environment: .production, reason: .stretched) }
    let debugSandbox = Group(activityType: .debug, environment: .sandbox, reason: .paused)
    let otherApp = Group(app: AppName("other-app")!, activityType: .charging, environment: .production, reason: .lowPower)

    @Test(arguments: TestEngine.every)
    func eachWindowCountsItsRunsAndTheLifetimeOutlivesThePruning(engine: TestEngine) throws {
        let store = try TestDatabase(engine, label: "withheld")
        // Eight days ago (outside the week), three days ago (inside it), and an hour ago.
        try store.record(run(at: now - 8 * day, [charging: 5]))
        try store.record(run(at: now - 3 * day, [charging: 2, debugSandbox: 4]))
        try store.record(run(at: now - day / 24, [charging: 1, chargingStretched: 3, otherApp: 7]))

        let report = try store.statsReport(now: now)
        #expect(
            Self.figures(report.withheld.lastDay) == [
                "charging/production/noActivity=1", "charging/production/stretched=3", "other-app:charging/production/lowPower=7",
            ])
        #expect(
            Self.figures(report.withheld.lastWeek) == [
                "charging/production/noActivity=3", "charging/production/stretched=3", "debug/sandbox/paused=4",
                "other-app:charging/production/lowPower=7",
            ])
        #expect(
            Self.figures(report.withheld.lifetime) == [
                "charging/production/noActivity=8", "charging/production/stretched=3", "debug/sandbox/paused=4",
                "other-app:charging/production/lowPower=7",
            ])
        #expect(try store.metricsSnapshot().withheld == report.withheld.lifetime)

        // 32 days on, every earlier run is pruned; the lifetime keeps them, the windows do not.
        try store.record(run(at: now + 32 * day, [debugSandbox: 1]))
        let later = try store.statsReport(now: now + 32 * day)
        #expect(Self.figures(later.withheld.lastWeek) == ["debug/sandbox/paused=1"])
        #expect(
            Self.figures(later.withheld.lifetime) == [
                "charging/production/noActivity=8", "charging/production/stretched=3", "debug/sandbox/paused=5",
                "other-app:charging/production/lowPower=7",
            ])
    }

    @Test(arguments: TestEngine.every)
    func aDeploymentWhoseAppsReportNothingShowsNothingNew(engine: TestEngine) throws {
        let store = try TestDatabase(engine, label: "withheld")
        try store.record(run(at: now - day / 24, [:]))
        let report = try store.statsReport(now: now)
        #expect(report.withheld.isEmpty)
        #expect(!report.text.contains("withheld"), "\(report.text)")
        #expect(!StatusPage.render(report).contains("withheld-heading"))
        // Machines find the same shape whatever the apps send; the counter's series are all 0.
        #expect(report.json.contains("\"withheld\":{\"lastDay\":[],\"lastWeek\":[],\"lifetime\":[]}"))
        let metrics = PrometheusMetrics.render(try store.metricsSnapshot())
        let series = metrics.split(separator: "\n").filter { $0.hasPrefix("liveactivity_wakes_withheld_total{") }
        #expect(series.count == ActivityType.allCases.count * APNsEnvironment.allCases.count * Cadence.Withheld.allCases.count)
        #expect(series.allSatisfy { $0.hasSuffix("} 0") })
    }

    @Test(arguments: TestEngine.real)
    func everyFaceShowsTheSameNumbers(engine: TestEngine) throws {
        let store = try TestDatabase(engine, label: "withheld")
        try store.record(run(at: now - 3 * day, [charging: 2]))
        try store.record(run(at: now - day / 24, [charging: 1, chargingStretched: 3, otherApp: 7]))
        let report = try store.statsReport(now: now)

        // The text: a line per app, type and environment, each reason 24 h / 7 d / all runs.
        #expect(report.text.contains("Wakes withheld by the cadence (24 h / 7 d / all runs):"))
        #expect(report.text.contains("  charging / production: noActivity 1/3/3, paused 0/0/0, lowPower 0/0/0, stretched 3/3/3"))
        #expect(
            report.text.contains(
                "  other-app charging / production: noActivity 0/0/0, paused 0/0/0, lowPower 7/7/7, stretched 0/0/0"))

        // The JSON, read back as a machine would.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        let withheld = try #require(json["withheld"] as? [String: [[String: Any]]])
        let week = try #require(withheld["lastWeek"])
        #expect(week.count == 3)
        #expect(week[0]["reason"] as? String == "noActivity" && week[0]["count"] as? Int == 3 && week[0]["app"] == nil)
        #expect(week[2]["app"] as? String == "other-app" && week[2]["reason"] as? String == "lowPower")

        // The metrics: the lifetime counter, the default app's without a label, the other's with it.
        let metrics = PrometheusMetrics.render(try store.metricsSnapshot())
        #expect(metrics.contains("# TYPE liveactivity_wakes_withheld_total counter\n"))
        #expect(
            metrics.contains(
                "liveactivity_wakes_withheld_total{activity_type=\"charging\",environment=\"production\",reason=\"noActivity\"} 3\n"
            ))
        #expect(
            metrics.contains(
                "liveactivity_wakes_withheld_total{activity_type=\"charging\",environment=\"production\",reason=\"lowPower\",app=\"other-app\"} 7\n"
            ))

        // The page: each cell named for its place in the JSON.
        let page = StatusPage.render(report)
        #expect(page.contains("<h2 id=\"withheld-heading\">"))
        for (figure, value) in [
            ("withheld.lastDay.charging/production.noActivity", 1), ("withheld.lastWeek.charging/production.noActivity", 3),
            ("withheld.lifetime.charging/production.stretched", 3),
            ("withheld.lastDay.other-app/charging/production.lowPower", 7),
            ("withheld.lastDay.charging/production.paused", 0),
        ] {
            #expect(page.contains("data-figure=\"\(figure)\" data-value=\"\(value)\""), "\(figure)")
        }
    }

    @Test(arguments: TestEngine.real)
    func aRowThisBuildCannotUseIsLeftOutAndAPlantedCountIsHeld(engine: TestEngine) throws {
        let store = try TestDatabase(engine, label: "withheld")
        try store.record(run(at: now - day / 24, [charging: 2]))
        // A newer build's reason, and a count planted past any sum's reach.
        try store.execute(
            """
            INSERT INTO sweep_withheld_totals (app, activity_type, environment, reason, count)
            VALUES ('default', 'charging', 'production', 'someNewReason', 5),
                   ('default', 'debug', 'production', 'paused', 9223372036854775807),
                   ('default', 'debug', 'sandbox', 'paused', -9223372036854775808)
            """)
        try store.execute(
            """
            INSERT INTO sweep_run_withheld (started_at, run_id, app, activity_type, environment, reason, count)
            VALUES (\(now - day / 24), 9999, 'default', 'debug', 'production', 'paused', 9223372036854775807),
                   (\(now - day / 24), 9998, 'default', 'debug', 'production', 'paused', 9223372036854775807)
            """)
        let report = try store.statsReport(now: now)
        #expect(
            Self.figures(report.withheld.lifetime) == [
                "charging/production/noActivity=2", "debug/production/paused=\(StoredValue.wakeups.upperBound)",
            ])
        #expect(Self.figures(report.withheld.lastDay).contains("debug/production/paused=\(StoredValue.wakeups.upperBound)"))
    }

    /// `app:type/environment/reason=count`, the app only where it is not the default one.
    static func figures(_ list: [WithheldWakes]) -> [String] {
        list.map {
            "\($0.group.app.prefix(":"))\($0.group.activityType.rawValue)/\($0.group.environment.rawValue)/\($0.group.reason.rawValue)=\($0.count)"
        }
    }
}
