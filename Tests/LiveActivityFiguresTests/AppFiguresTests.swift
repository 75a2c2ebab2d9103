import Foundation
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityFigures
@testable import LiveActivityStore

/// Several apps in the figures (SPEC 6, 7; issue 34 point 4): `stats` (text and JSON),
/// `history`, `/wakeup/metrics` and the status page show each further app apart, by name, and a
/// fault names the app whose pushes it stopped; the default app's figures read as they always
/// did (the one-app figures are those of every other figures test).
@Suite struct AppFiguresTests {
    let now: Int64 = 1_800_000_000_000
    let two = AppName("two")!

    func token(_ seed: Int) -> PushToken { PushToken(trusted: sampleToken(seed)) }

    /// The default app: registrations 1 and 2 (charging, production); app two: registrations 1
    /// (the same token) and 3 (debug, sandbox); a run 10 minutes ago with a configuration fault of
    /// app two's production.
    func populated(on engine: TestEngine) throws -> TestDatabase {
        let database = try TestDatabase(engine, label: "appfigures")
        try database.register(token(1), now: now - 60_000)
        try database.register(token(2), now: now - 60_000)
        try database.register(token(1), now: now - 60_000, app: two)
        try database.register(token(3), type: .debug, environment: .sandbox, now: now - 60_000, app: two)
        var run = SweepSummary()
        run.startedAt = now - 600_000
        run.sent = 3
        run.faults = [
            SweepFault(
                environment: .production, kind: .configuration, reason: "TopicDisallowed", pushes: 1, advice: "", app: two)
        ]
        try database.record(run)
        return database
    }

    @Test(arguments: TestEngine.every)
    func statsShowEachAppApartAndTheFaultNamesItsApp(engine: TestEngine) throws {
        let database = try populated(on: engine)
        let report = try database.statsReport(now: now)
        #expect(report.active == 4, "every app's registrations")
        let text = report.text
        #expect(text.contains("\n  charging / production: 2\n"), "the default app's line as before: \(text)")
        #expect(text.contains("\n  two charging / production: 1\n"), "\(text)")
        #expect(text.contains("\n  two debug / sandbox: 1\n"), "\(text)")
        #expect(text.contains("  two production: configuration TopicDisallowed in 1 runs (1 pushes)"), "\(text)")

        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        let groups = try #require(json["byTypeAndEnvironment"] as? [[String: Any]])
        #expect(groups.filter { $0["app"] == nil }.compactMap { $0["count"] as? Int } == [2], "\(groups)")
        #expect(groups.filter { $0["app"] as? String == "two" }.count == 2, "\(groups)")
        let faults = try #require(json["faults24h"] as? [[String: Any]])
        #expect(faults.count == 1 && faults.first?["app"] as? String == "two", "\(faults)")
    }

    @Test(arguments: TestEngine.every)
    func metricsLabelAFurtherAppsSeriesAndLeaveTheDefaultAppsAsTheyWere(engine: TestEngine) throws {
        let database = try populated(on: engine)
        let metrics = PrometheusMetrics.render(try database.metricsSnapshot())
        #expect(metrics.contains("liveactivity_registrations{activity_type=\"charging\",environment=\"production\"} 2\n"))
        #expect(
            metrics.contains("liveactivity_registrations{activity_type=\"charging\",environment=\"production\",app=\"two\"} 1\n"),
            "\(metrics)")
        #expect(metrics.contains("liveactivity_registrations{activity_type=\"debug\",environment=\"sandbox\"} 0\n"))
        #expect(
            metrics.contains(
                "liveactivity_sweep_faults_total{environment=\"production\",kind=\"configuration\",reason=\"TopicDisallowed\",app=\"two\"} 1\n"
            ), "\(metrics)")
    }

    @Test(arguments: TestEngine.every)
    func historyNamesAFurtherAppAndEachAppHasItsOwnRegistration(engine: TestEngine) throws {
        let database = try populated(on: engine)
        let found = try database.reading { try DeviceHistory.lookup(sampleToken(3), in: $0) }
        guard case .found(let history) = found else {
            Issue.record("not found: \(found)")
            return
        }
        let text = history.text(now: now, policy: IntervalPolicy(), expiry: 8 * 3_600_000)
        #expect(text.hasPrefix("Registration \(token(3).logPrefix) (app two, debug, sandbox)"), "\(text)")
        #expect(history.json(policy: IntervalPolicy(), expiry: 8 * 3_600_000, now: now).contains("\"app\":\"two\""))
        let own = try database.reading { try DeviceHistory.lookup(sampleToken(2), in: $0) }
        guard case .found(let defaults) = own else {
            Issue.record("not found: \(own)")
            return
        }
        #expect(
            defaults.text(now: now, policy: IntervalPolicy(), expiry: 8 * 3_600_000).hasPrefix(
                "Registration \(token(2).logPrefix) (charging, production)"))
    }

    @Test(arguments: TestEngine.every)
    func theStatusPageNamesTheAppOfAFault(engine: TestEngine) throws {
        let database = try populated(on: engine)
        let page = StatusPage.render(try database.statsReport(now: now))
        #expect(page.contains("app <strong>two</strong>, configuration <code>TopicDisallowed</code>"), "\(page)")
        #expect(page.contains("data-figure=\"faults24h.two/production/configuration/TopicDisallowed.runs\""))
        // The alarm names the app whose pushes the last sweep's fault stopped.
        #expect(page.contains("data-value=\"lastSweepFailed\""), "the run with the fault failed")
        #expect(page.contains("stopped the pushes of app <strong data-figure=\"failingApps\" data-value=\"two\">two</strong>"))
    }
}

extension AppFiguresTests {
    @Test(arguments: TestEngine.every)
    func historyOfATokenOfSeveralAppsSaysWhichAndAnAppPicksOne(engine: TestEngine) throws {
        let database = try populated(on: engine)
        let both = try database.reading { try DeviceHistory.lookup(sampleToken(1), in: $0) }
        #expect(both == .severalApps([.defaultApp, two]))
        let prefix = sampleToken(1)
        guard case .found(let picked) = try database.reading({ try DeviceHistory.lookup(prefix, app: two, in: $0) }) else {
            Issue.record("app two's registration of the token is not found")
            return
        }
        #expect(picked.registration.app == two && picked.registration.token == token(1))
        guard case .found(let own) = try database.reading({ try DeviceHistory.lookup(prefix, app: .defaultApp, in: $0) })
        else {
            Issue.record("the default app's registration of the token is not found")
            return
        }
        #expect(own.registration.app == .defaultApp)
        #expect(try database.reading { try DeviceHistory.lookup(sampleToken(2), app: two, in: $0) } == .notRegistered)
    }
}
