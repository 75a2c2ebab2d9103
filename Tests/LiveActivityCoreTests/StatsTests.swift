import TestSupport
import Testing

@testable import LiveActivityCore

@Suite struct StatsTests {
    let folder = TemporaryDirectory("stats")
    let now: Int64 = 1_800_000_000_000
    let minute: Int64 = 60_000

    func populatedStore() throws -> RegistrationStore {
        let store = try RegistrationStore(path: folder.file("db.sqlite"))
        let ages: [(Int, ActivityType, APNsEnvironment, Int64)] = [
            (1, .charging, .production, 1 * minute), (2, .charging, .production, 10 * minute),
            (3, .debug, .sandbox, 45 * minute), (4, .charging, .sandbox, 3 * 60 * minute),
        ]
        for (seed, type, environment, age) in ages {
            try store.register(
                try PushToken(validating: sampleToken(seed)), type: type, environment: environment, now: now - age,
                expiresAt: now, cap: 100)
        }
        try store.connection.execute("UPDATE registrations SET wakeup_count = 7 WHERE push_token = '\(sampleToken(3))'")
        try store.connection.execute("UPDATE registrations SET wakeup_count = 2 WHERE push_token = '\(sampleToken(4))'")
        let sweeps = try SweepStore(connection: store.connection)
        var recent = SweepSummary()
        recent.startedAt = now - 10 * minute
        recent.sent = 90
        recent.failed = 10
        recent.removed = 3
        recent.durationMilliseconds = 1234
        recent.failureReasons = ["ServiceUnavailable": 10]
        recent.removalReasons = ["Unregistered": 3]
        try sweeps.record(recent)
        var older = SweepSummary()
        older.startedAt = now - 3 * 86_400_000
        older.sent = 100
        try sweeps.record(older)
        return store
    }

    @Test func theReportCountsByTypeEnvironmentAndAge() throws {
        let store = try populatedStore()
        let report = try StatsReport.gather(store.connection, now: now)
        #expect(report.active == 4)
        #expect(
            report.byTypeAndEnvironment.map { "\($0.activityType)/\($0.environment)=\($0.count)" }
                == ["charging/production=2", "charging/sandbox=1", "debug/sandbox=1"])
        #expect(report.byAge.map(\.count) == [1, 1, 1, 1, 0])
        #expect(report.oldestRegisteredAt == now - 180 * minute)
        #expect(report.activeWakeups == 9)
        #expect(report.topWakeups.map(\.count) == [7, 2])
        #expect(report.topWakeups.first?.token == String(sampleToken(3).prefix(8)) + "…")
        #expect(report.lastDay.runs == 1 && report.lastDay.sent == 90 && report.lastDay.failed == 10)
        #expect(report.lastDay.errorRate == 0.1)
        #expect(report.lastWeek.runs == 2 && report.lastWeek.sent == 190)
        #expect(report.lifetimeSent == 190)
        #expect(report.lastRunDurationMilliseconds == 1234)
    }

    @Test func theTextAndJSONShowTheFiguresButNoFullToken() throws {
        let report = try StatsReport.gather(try populatedStore().connection, now: now)
        #expect(report.text.contains("Active registrations: 4"))
        #expect(report.text.contains("debug / sandbox: 1"))
        #expect(report.text.contains("error rate 10.0%"))
        #expect(report.json.contains("\"active\":4"))
        #expect(
            report.json.contains(
                "\"sweeps24h\":{\"runs\":1,\"sent\":90,\"failed\":10,\"removed\":3,\"expired\":0,\"errorRate\":0.1000}"))
        for seed in 1...4 {
            #expect(!report.text.contains(sampleToken(seed)))
            #expect(!report.json.contains(sampleToken(seed)))
        }
    }

    @Test func anEmptyDatabaseReportsZeros() throws {
        let store = try RegistrationStore(path: folder.file("empty.sqlite"))
        let report = try StatsReport.gather(store.connection, now: now)
        #expect(report.active == 0 && report.oldestRegisteredAt == nil && report.lastRunAt == nil)
        #expect(report.text.contains("Last sweep: none recorded"))
        #expect(report.json.contains("\"lastRunAt\":null"))
    }

    @Test func metricsAreInPrometheusTextFormat() throws {
        let text = try PrometheusMetrics.render(try populatedStore().connection)
        #expect(text.contains("# TYPE liveactivity_registrations gauge\n"))
        #expect(text.contains("liveactivity_registrations{activity_type=\"charging\",environment=\"production\"} 2\n"))
        #expect(text.contains("liveactivity_registrations{activity_type=\"debug\",environment=\"production\"} 0\n"))
        #expect(text.contains("liveactivity_pushes_sent_total 190\n"))
        #expect(text.contains("liveactivity_pushes_failed_by_reason_total{reason=\"ServiceUnavailable\"} 10\n"))
        #expect(text.contains("liveactivity_registrations_removed_total 3\n"))
        #expect(text.contains("liveactivity_last_sweep_duration_seconds 1.234\n"))
        // Every sample line is `name{labels} value`.
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            #expect(line.split(separator: " ").count == 2, "\(line)")
        }
    }

    @Test func theMetricsRouteAnswersGetOnly() throws {
        var configuration = Configuration()
        configuration.databasePath = folder.file("db.sqlite")
        _ = try populatedStore()
        let api = RegistrationAPI(configuration: configuration, log: { _ in })
        let response = api.respond(to: HTTPRequest(method: "GET", path: "/wakeup/metrics"))
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == PrometheusMetrics.contentType)
        #expect(response.bodyText.contains("liveactivity_sweep_runs_total 2"))
        #expect(api.respond(to: HTTPRequest(method: "POST", path: "/wakeup/metrics")).status == 405)
    }
}
