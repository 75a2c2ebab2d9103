import Foundation
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityFigures
@testable import LiveActivityStore

/// Every figure that counts pushes, per app (SPEC 7), on every engine: the delivery figures
/// (200s, acknowledged wakes, their delay, acks by outcome, per registration-hour) and the run
/// counts (24 h, 7 d, lifetime, the summary line) show a further app's pushes apart, in `stats`
/// text and JSON, `/wakeup/metrics` and the status page, while the default app's read as they
/// always did; the lifetime totals of each app never go down.
extension AppFiguresTests {
    /// The default app: tokens 1 and 2 (charging) answered 200, token 1's wake acknowledged after
    /// 1.5 s. App two: token 1 (charging) and 3 (debug) answered 200, token 3's acknowledged after
    /// 3 s, and an ack of a token it never registered (unmatched). Every 200 ten minutes ago.
    func delivered(on engine: TestEngine) throws -> TestDatabase {
        let database = try TestDatabase(engine, label: "apppushes")
        let answeredAt = now - 600_000
        let registrations: [(Int, ActivityType, AppName)] = [
            (1, .charging, .defaultApp), (2, .charging, .defaultApp), (1, .charging, two), (3, .debug, two),
        ]
        var writes: [OutcomeWrite] = []
        var answered: [AnsweredPush] = []
        for (seed, type, app) in registrations {
            try database.register(token(seed), type: type, now: answeredAt - 1000, app: app)
            let key = TargetKey.wake(token(seed), app: app)
            writes.append(.delivered(key, selectedRegisteredAt: answeredAt - 1000, at: answeredAt, nextPushAt: now + 3_600_000))
            answered.append(
                AnsweredPush(
                    key: key,
                    attempt: PushAttempt(
                        token: token(seed), sentAt: answeredAt - 50, answeredAt: answeredAt, status: 200, reason: nil,
                        apnsID: "ID-\(seed)-\(app)"),
                    activityType: type, environment: .production, previousDeliveryAt: nil))
        }
        try database.apply(writes, answered: answered)
        #expect(try database.acknowledge(token(1), now: answeredAt + 1500) == .matched)
        #expect(try database.acknowledge(token(3), now: answeredAt + 3000, app: two) == .matched)
        #expect(try database.acknowledge(token(99), now: answeredAt + 3000, app: two) == .unmatched)
        return database
    }

    @Test(arguments: TestEngine.every)
    func eachAppsDeliveryAndAcksAreApart(engine: TestEngine) throws {
        let database = try delivered(on: engine)
        let report = try database.statsReport(now: now)
        let own = report.delivery
        #expect(own.lastDay.map(\.delivered) == [2, 0] && own.lastDay.map(\.acked) == [1, 0], "\(own.lastDay)")
        #expect(own.acksLastDay == [.matched: 1, .duplicate: 0, .unmatched: 0])
        let theirs = try #require(own.apps[AppName(trusted: "two")], "\(own.apps)")
        #expect(theirs.lastDay.map(\.delivered) == [1, 1] && theirs.lastDay.map(\.acked) == [0, 1], "\(theirs.lastDay)")
        #expect(theirs.acksLastWeek == [.matched: 1, .duplicate: 0, .unmatched: 1])
        #expect(theirs.acksLifetime == [.matched: 1, .duplicate: 0, .unmatched: 1] && theirs.apps.isEmpty)

        let text = report.text
        for line in [
            "Delivery over 24 h, charging: 2 answered 200, 1 acked (50.0%), delay median",
            "Delivery over 24 h, debug: no push answered 200",
            "Acks over 24 h: matched 1, duplicate 0, unmatched 0",
            "Delivery over 24 h, two charging: 1 answered 200, 0 acked (0.0%)",
            "Delivery over 7 d, two debug: 1 answered 200, 1 acked (100.0%), delay median 3.",
            "Acks over 24 h, two: matched 1, duplicate 0, unmatched 1",
        ] {
            #expect(text.contains("\n" + line), "\(line): \(text)")
        }

        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        let delivery = try #require(json["delivery"] as? [String: Any])
        #expect((delivery["24h"] as? [String: Any])?["acks"] as? [String: Int] == ["matched": 1, "duplicate": 0, "unmatched": 0])
        let two = try #require((delivery["apps"] as? [String: Any])?["two"] as? [String: Any], "\(delivery)")
        let types = try #require((two["24h"] as? [String: Any])?["byType"] as? [[String: Any]])
        #expect(types.map { $0["delivered"] as? Int } == [1, 1] && types.map { $0["acked"] as? Int } == [0, 1], "\(types)")
        #expect(two["acksLifetime"] as? [String: Int] == ["matched": 1, "duplicate": 0, "unmatched": 1], "\(two)")

        // The page's hours: the default app's as always, app two's apart.
        #expect(report.day.hours.map(\.answered) == [2] && report.day.hours.map(\.acknowledged) == [1])
        let hours = report.day.apps[AppName(trusted: "two")]?[.wake]?.hours ?? []
        #expect(hours.map(\.answered) == [2] && hours.map(\.acknowledged) == [1], "\(report.day.apps)")
        let page = StatusPage.render(report)
        #expect(page.contains("<caption>App two: wakes acknowledged, per hour</caption>"), "\(page)")
        // The default app's acks beside app two's: titled as the default app's.
        for title in [
            "Default app: share of pushes answered 200 that the app acknowledged, per hour",
            "Default app: delay from the 200 to the app&#39;s ack, per hour",
            "<figcaption>Default app: acknowledged wakes, percent of the 200s of each hour.</figcaption>",
            "<figcaption>Default app: ack delay: median (solid line) and 90th percentile (dashed line).</figcaption>",
        ] {
            #expect(page.contains(title), "\(title)")
        }

        let metrics = PrometheusMetrics.render(try database.metricsSnapshot())
        for series in [
            "liveactivity_acks_total{outcome=\"matched\"} 1\n", "liveactivity_acks_total{outcome=\"unmatched\"} 0\n",
            "liveactivity_acks_total{outcome=\"matched\",app=\"two\"} 1\n",
            "liveactivity_acks_total{outcome=\"unmatched\",app=\"two\"} 1\n",
            "liveactivity_wake_ack_delay_seconds_count 1\n", "liveactivity_wake_ack_delay_seconds_sum 1.5\n",
            "liveactivity_wake_ack_delay_seconds_count{app=\"two\"} 1\n",
            "liveactivity_wake_ack_delay_seconds_sum{app=\"two\"} 3.0\n",
            "liveactivity_wake_ack_delay_seconds_bucket{le=\"+Inf\",app=\"two\"} 1\n",
        ] {
            #expect(metrics.contains(series), "\(series): \(metrics)")
        }
    }

    /// A run with the default app's wakes and app two's wakes and widgets.
    func run(at startedAt: Int64) -> SweepSummary {
        var run = SweepSummary()
        run.startedAt = startedAt
        run.active = 2
        run.sent = 3
        run[.wake, of: two].active = 4
        run[.wake, of: two].sent = 2
        run[.wake, of: two].failed = 1
        run[.wake, of: two].removed = 1
        run[.wake, of: two].removalReasons = ["Unregistered": 1]
        run[.wake, of: two].failureReasons = ["ServiceUnavailable": 1]
        run[.widgets, of: two].active = 1
        run[.widgets, of: two].sent = 1
        return run
    }

    @Test(arguments: TestEngine.every)
    func eachAppsRunCountsAreApartInEveryFigureAndTheLine(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "appruns")
        let run = run(at: now - 600_000)
        #expect(run.line.hasPrefix("sweep: active=2 sent=3 skipped=0 expired=0 removed=0 failed=0 duration=0.0s two/"))
        #expect(
            run.line.hasSuffix(
                " two/active=4 two/sent=2 two/skipped=0 two/removed=1 two/failed=1 two/failures=ServiceUnavailable:1"
                    + " two/removals=Unregistered:1 two/widgets_active=1 two/widgets_sent=1 two/widgets_skipped=0"
                    + " two/widgets_removed=0 two/widgets_failed=0"), "\(run.line)")
        try database.record(run)

        let report = try database.statsReport(now: now)
        for totals in [report.lastDay, report.lastWeek] {
            #expect(totals.runs == 1 && totals.sent == 3 && totals.failed == 0 && totals.others.isEmpty, "\(totals)")
            #expect(
                totals.apps == [
                    StatsReport.PushTotals(kind: .wake, sent: 2, failed: 1, removed: 1, app: AppName(trusted: "two")),
                    StatsReport.PushTotals(kind: .widgets, sent: 1, app: AppName(trusted: "two")),
                ], "\(totals.apps)")
        }
        #expect(report.lifetimeSent == 3 && report.lifetimeApps == report.lastDay.apps)
        #expect(report.day.buckets.map(\.sent) == [3], "the default app's buckets as always")
        #expect(report.day.apps[AppName(trusted: "two")]?[.wake]?.buckets.map(\.sent) == [2], "\(report.day.apps)")

        let text = report.text
        for line in [
            "Sweeps over 24 h: 1 runs, sent 3, failed 0, removed 0, expired 0, error rate 0.0%",
            "  two wake: sent 2, failed 1, removed 1, error rate 33.3%", "  two widgets: sent 1, failed 0, removed 0",
            "Wakeups of active registrations (every app): 0; delivered in all runs: 3",
            "two wake pushes delivered in all runs: 2",
            "two widgets pushes delivered in all runs: 1",
        ] {
            #expect(text.contains("\n" + line), "\(line): \(text)")
        }

        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        let day = try #require(json["sweeps24h"] as? [String: Any])
        #expect(day["sent"] as? Int == 3)
        let apps = try #require(day["apps"] as? [String: [String: [String: Any]]], "\(day)")
        #expect(apps["two"]?["wake"]?["sent"] as? Int == 2 && apps["two"]?["widgets"]?["sent"] as? Int == 1, "\(apps)")
        let lifetime = try #require(json["lifetimeApps"] as? [String: [String: [String: Any]]], "\(json)")
        #expect(lifetime["two"]?["wake"]?["removed"] as? Int == 1, "\(lifetime)")
        let buckets = ((json["day"] as? [String: Any])?["apps"] as? [String: Any]).flatMap {
            (($0["two"] as? [String: Any])?["wake"] as? [String: Any])?["buckets"] as? [[String: Any]]
        }
        #expect(buckets?.map { $0["sent"] as? Int } == [2], "\(json["day"] ?? "")")

        let metrics = PrometheusMetrics.render(try database.metricsSnapshot())
        for series in [
            "liveactivity_pushes_sent_total{kind=\"wake\"} 3\n", "liveactivity_pushes_sent_total{kind=\"widgets\"} 0\n",
            "liveactivity_pushes_sent_total{kind=\"wake\",app=\"two\"} 2\n",
            "liveactivity_pushes_sent_total{kind=\"widgets\",app=\"two\"} 1\n",
            "liveactivity_pushes_failed_total{kind=\"wake\",app=\"two\"} 1\n",
            "liveactivity_registrations_removed_total{kind=\"wake\",app=\"two\"} 1\n",
        ] {
            #expect(metrics.contains(series), "\(series): \(metrics)")
        }

        let page = StatusPage.render(report)
        for figure in [
            "data-figure=\"sweeps24h.sent\" data-value=\"3\"", "data-figure=\"sweeps24h.apps.two.wake.sent\" data-value=\"2\"",
            "data-figure=\"sweeps7d.apps.two.widgets.sent\" data-value=\"1\"",
            "data-figure=\"day.apps.two.wake.sent\" data-value=\"2\"",
            "data-figure=\"day.apps.two.wake.failed\" data-value=\"1\"",
            "<svg role=\"img\" aria-labelledby=\"app-two-wake-sent-chart-title\"",
            // The lifetime figures: the default app's wakes labelled so, each of app two's kinds
            // under its name; the wake-ups above them are every app's.
            "Wake-ups of the active registrations, every app's: <span data-figure=\"activeWakeups\" data-value=\"0\">",
            "Default app: delivered over all recorded runs: <span data-figure=\"lifetimeSent\" data-value=\"3\">3</span>.",
            "App two: wake pushes delivered over all recorded runs: <span data-figure=\"lifetimeApps.two.wake.sent\" data-value=\"2\">",
            "App two: widgets pushes delivered over all recorded runs: <span data-figure=\"lifetimeApps.two.widgets.sent\" data-value=\"1\">",
        ] {
            #expect(page.contains(figure), "\(figure)")
        }
    }

    /// SPEC 7: lifetime totals never go down; pruning the run history (30 days) leaves each app's.
    @Test(arguments: TestEngine.every)
    func eachAppsLifetimeTotalsStayWhenTheHistoryIsPruned(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "appprune")
        try database.record(run(at: now - 40 * 86_400_000))
        try database.record(run(at: now - 600_000))  // prunes the first
        let report = try database.statsReport(now: now)
        #expect(report.lastWeek.runs == 1 && report.lastWeek.apps.first?.sent == 2, "\(report.lastWeek)")
        #expect(report.lifetimeSent == 6)
        #expect(
            report.lifetimeApps == [
                StatsReport.PushTotals(kind: .wake, sent: 4, failed: 2, removed: 2, app: AppName(trusted: "two")),
                StatsReport.PushTotals(kind: .widgets, sent: 2, app: AppName(trusted: "two")),
            ], "\(report.lifetimeApps)")
        let metrics = PrometheusMetrics.render(try database.metricsSnapshot())
        #expect(metrics.contains("liveactivity_sweep_runs_total 2\n"))
        #expect(metrics.contains("liveactivity_pushes_sent_total{kind=\"wake\",app=\"two\"} 4\n"), "\(metrics)")
        #expect(metrics.contains("liveactivity_pushes_failed_total{kind=\"wake\",app=\"two\"} 2\n"), "\(metrics)")
    }
}
