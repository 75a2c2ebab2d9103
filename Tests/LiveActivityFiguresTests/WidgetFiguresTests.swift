import Foundation
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityFigures
@testable import LiveActivityStore

/// Widgets pushes in the figures (SPEC 7, issue 31: "every figure that counts pushes counts them
/// per push kind"): `stats` (text and JSON) and `/wakeup/metrics` show the widgets targets and
/// their pushes apart from the wakes, and leave every wake figure as it was - a deployment
/// without widget targets reads exactly what it read before. The JSON's and the metrics' claims
/// hold for every kind with its own token and run over `PushKind.others`; the text's lines and
/// the release before are widgets' own, spelt out.
@Suite struct WidgetFiguresTests {
    let now: Int64 = 1_800_000_000_000
    let minute: Int64 = 60_000

    func token(_ seed: Int) -> PushToken { PushToken(trusted: sampleToken(seed)) }
    /// The token of a target of another kind (a widget extension's).
    func widgetToken(_ seed: Int) -> PushToken { PushToken(trusted: testToken(500 + seed)) }

    /// The figures of `populateStatsFigures` (four registrations, two pushed, one waiting after
    /// failures; a run 3 days ago and one 10 minutes ago with a sandbox fault), and with a kind
    /// in `other` (widgets) also: registrations 1 and 2 (charging, production) with a target of it
    /// each, pushed 5 times, the second waiting after a failure; two of its pushes answered 200
    /// five minutes ago; and the recent run's pushes of it (40 sent, 2 failed, 1 target removed).
    /// None of it touches a wake target or a wake's count.
    /// On `engine`, a real one: the figures are planted with SQL, as in `populateStatsFigures`.
    func populated(with other: PushKind?, on engine: TestEngine) throws -> TestDatabase {
        let database = try TestDatabase(engine, label: other.map(\.name) ?? "wakes")
        let ages: [(Int, ActivityType, APNsEnvironment, Int64)] = [
            (1, .charging, .production, 1 * minute), (2, .charging, .production, 10 * minute),
            (3, .debug, .sandbox, 45 * minute), (4, .charging, .sandbox, 3 * 60 * minute),
        ]
        for (seed, type, environment, age) in ages {
            try database.register(
                token(seed), type: type, environment: environment, now: now - age, expiresAt: now, cap: 100,
                others: other.map { seed <= 2 ? [.init(kind: $0, token: widgetToken(seed))] : [] } ?? [])
        }
        try database.execute("UPDATE push_targets SET push_count = 7 WHERE push_token = '\(sampleToken(3))'")
        try database.execute("UPDATE push_targets SET push_count = 2 WHERE push_token = '\(sampleToken(4))'")
        try database.recountWakeups()
        try database.execute("UPDATE push_targets SET consecutive_failures = 2 WHERE push_token = '\(sampleToken(3))'")
        var older = SweepSummary()
        older.startedAt = now - 3 * 86_400_000
        older.sent = 100
        try database.record(older)
        var recent = SweepSummary()
        recent.startedAt = now - 10 * minute
        recent.sent = 90
        recent.failed = 10
        recent.removed = 3
        recent.durationMilliseconds = 1234
        recent.failureReasons = ["ServiceUnavailable": 10]
        recent.removalReasons = ["Unregistered": 3]
        recent.faults = [
            SweepFault(environment: .sandbox, kind: .configuration, reason: "BadEnvironmentKeyInToken", pushes: 40, advice: "")
        ]
        if let other {
            recent[other].active = 2
            recent[other].sent = 40
            recent[other].failed = 2
            recent[other].removed = 1
            recent[other].failureReasons = ["TooManyRequests": 2]
            recent[other].removalReasons = ["BadDeviceToken": 1]
        }
        try database.record(recent)
        guard let other else { return database }
        let pushedAt = now - 5 * minute
        let keys = [1, 2].map { TargetKey(registration: token($0), kind: other) }
        try database.apply(
            zip(keys, [now - 1 * minute, now - 10 * minute]).map { key, registeredAt in
                .delivered(key, selectedRegisteredAt: registeredAt, at: pushedAt, nextPushAt: now + 30 * minute)
            },
            answered: zip(keys, [1, 2]).map { key, seed in
                AnsweredPush(
                    key: key,
                    attempt: PushAttempt(
                        token: widgetToken(seed), sentAt: pushedAt - 10, answeredAt: pushedAt, status: 200, reason: nil,
                        apnsID: nil),
                    activityType: .charging, environment: .production, previousDeliveryAt: nil)
            })
        try database.execute("UPDATE push_targets SET push_count = 5 WHERE push_kind = '\(other)'")
        try database.recountWakeups()
        try database.execute(
            "UPDATE push_targets SET consecutive_failures = 1 WHERE push_kind = '\(other)'"
                + " AND registration_token = '\(sampleToken(2))'")
        return database
    }

    /// The text without the lines that are about widgets: those that name them, and the groups
    /// listed under `Widgets targets:`.
    func wakeLines(_ text: String) -> [String] {
        var lines: [String] = []
        var underWidgets = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("Widgets ") || line.hasPrefix("  widgets:") {
                underWidgets = line.hasPrefix("Widgets targets:")
                continue
            }
            if underWidgets && line.hasPrefix("  ") { continue }
            underWidgets = false
            lines.append(line)
        }
        return lines
    }

    @Test(arguments: TestEngine.real)
    func theTextShowsWidgetsApartAndEveryWakeLineAsWithout(engine: TestEngine) throws {
        let wakes = try populated(with: nil, on: engine).statsReport(now: now)
        let both = try populated(with: .widgets, on: engine).statsReport(now: now)
        let text = both.text
        for line in [
            "Widgets targets: 2", "  charging / production: 2",
            "Widgets pushes delivered in all runs: 40",
            "  widgets: sent 40, failed 2, removed 1, error rate 4.8%",
            "Widgets pushes over 24 h: 2 answered 200, per target-hour 1.0 pushes",
            "Widgets pushes over 7 d: 2 answered 200, per target-hour 1.0 pushes",
            "Widgets targets waiting after failures: production 1",
            "Widgets failure reasons over 24 h: TooManyRequests 2",
            "Widgets removal reasons over 24 h: BadDeviceToken 1",
        ] {
            #expect(text.contains(line + "\n") || text.hasSuffix(line), "\(line) in:\n\(text)")
        }
        #expect(text.components(separatedBy: "  widgets: sent 40").count == 3, "under the 24 h and the 7 d sweeps")
        #expect(wakeLines(text) == wakes.text.components(separatedBy: "\n"), "\(text)")
        #expect(!wakes.text.contains("idgets"), "no widgets, no widgets lines")
        // The wake figures themselves: widgets targets are neither registrations nor wake-ups.
        #expect(both.active == 4 && both.activeWakeups == 9 && both.lifetimeSent == 190)
        #expect(both.byTypeAndEnvironment == wakes.byTypeAndEnvironment)
        #expect(both.topWakeups == wakes.topWakeups)
        #expect(both.lastDay.sent == 90 && both.lastDay.failed == 10 && both.lastDay.removed == 3)
        #expect(both.lastDay.others == [.init(kind: .widgets, sent: 40, failed: 2, removed: 1)])
        #expect(both.otherTargets == [.init(activityType: .charging, environment: .production, count: 2, kind: .widgets)])
        for token in [sampleToken(1), sampleToken(2), widgetToken(1).hex, widgetToken(2).hex] {
            #expect(!text.contains(token) && !both.json.contains(token))
        }
    }

    /// The JSON of a report with another kind's targets (widgets) holds every member of the one
    /// without, as it was, and that kind's figures in members of their own.
    @Test(arguments: TestEngine.real, PushKind.others)
    func theJSONShowsAnotherKindApartAndEveryWakeMemberAsWithout(engine: TestEngine, kind: PushKind) throws {
        let wakes = try object(try populated(with: nil, on: engine).statsReport(now: now).json)
        let both = try object(try populated(with: kind, on: engine).statsReport(now: now).json)

        let targets = try #require(both["otherTargets"] as? [[String: Any]])
        #expect(targets.count == 1)
        #expect(targets.first?["kind"] as? String == kind.name && targets.first?["count"] as? Int == 2)
        for period in ["sweeps24h", "sweeps7d"] {
            let sweeps = try #require(both[period] as? [String: Any])
            let ofKind = try #require((sweeps["others"] as? [String: Any])?[kind.name] as? [String: Any], "\(period)")
            #expect(ofKind["sent"] as? Int == 40 && ofKind["failed"] as? Int == 2 && ofKind["removed"] as? Int == 1)
            #expect(((wakes[period] as? [String: Any])?["others"] as? [String: Any])?.isEmpty == true)
        }
        #expect(((both["lifetimeOthers"] as? [String: Any])?[kind.name] as? [String: Any])?["sent"] as? Int == 40)
        let backingOff = try #require(both["otherBackingOff"] as? [[String: Any]])
        #expect(backingOff.first?["kind"] as? String == kind.name && backingOff.first?["count"] as? Int == 1)
        let delivery = try #require((both["delivery"] as? [String: Any])?["otherKinds"] as? [String: Any])
        let day = try #require(delivery["24h"] as? [[String: Any]])
        #expect(day.first?["kind"] as? String == kind.name && day.first?["delivered"] as? Int == 2)
        let kindDay = try #require(
            ((both["day"] as? [String: Any])?["otherKinds"] as? [String: Any])?[kind.name] as? [String: Any])
        #expect((kindDay["failureReasons"] as? [String: Int]) == ["TooManyRequests": 2])
        #expect((kindDay["removalReasons"] as? [String: Int]) == ["BadDeviceToken": 1])
        let bucket = try #require((kindDay["buckets"] as? [[String: Any]])?.first)
        #expect(bucket["sent"] as? Int == 40 && bucket["failed"] as? Int == 2 && bucket["active"] as? Int == 2)

        // Every wake member as it was: the report with the kind, less its members, is the one without.
        func wakeMembers(_ json: [String: Any]) -> NSDictionary {
            var json = json
            for key in ["otherTargets", "lifetimeOthers", "otherBackingOff"] { json[key] = nil }
            for key in ["sweeps24h", "sweeps7d"] {
                var sweeps = json[key] as? [String: Any]
                sweeps?["others"] = nil
                json[key] = sweeps
            }
            for (key, member) in [("delivery", "otherKinds"), ("day", "otherKinds")] {
                var inner = json[key] as? [String: Any]
                inner?[member] = nil
                json[key] = inner
            }
            return json as NSDictionary
        }
        #expect(wakeMembers(both) == wakeMembers(wakes))
    }

    @Test(arguments: TestEngine.real, PushKind.others)
    func metricsCountAnotherKindsPushesUnderItsKind(engine: TestEngine, kind: PushKind) throws {
        let wakes = PrometheusMetrics.render(try populated(with: nil, on: engine).metricsSnapshot())
        let both = PrometheusMetrics.render(try populated(with: kind, on: engine).metricsSnapshot())
        for line in [
            #"liveactivity_pushes_sent_total{kind="wake"} 190"#,
            #"liveactivity_pushes_sent_total{kind="\#(kind)"} 40"#,
            #"liveactivity_pushes_failed_total{kind="wake"} 10"#,
            #"liveactivity_pushes_failed_total{kind="\#(kind)"} 2"#,
            #"liveactivity_pushes_failed_by_reason_total{kind="wake",reason="ServiceUnavailable"} 10"#,
            #"liveactivity_pushes_failed_by_reason_total{kind="\#(kind)",reason="TooManyRequests"} 2"#,
            #"liveactivity_registrations_removed_total{kind="wake"} 3"#,
            #"liveactivity_registrations_removed_total{kind="\#(kind)"} 1"#,
            #"liveactivity_push_targets{kind="wake",activity_type="charging",environment="production"} 2"#,
            #"liveactivity_push_targets{kind="\#(kind)",activity_type="charging",environment="production"} 2"#,
            #"liveactivity_push_targets{kind="\#(kind)",activity_type="debug",environment="sandbox"} 0"#,
            #"liveactivity_registrations_backing_off{environment="production",kind="\#(kind)"} 1"#,
            #"liveactivity_registrations_backing_off{environment="sandbox",kind="wake"} 1"#,
        ] {
            #expect(both.contains(line + "\n"), "\(line)")
        }
        // The registrations are the wake targets: another kind's targets never count among them.
        #expect(both.contains(#"liveactivity_registrations{activity_type="charging",environment="production"} 2"# + "\n"))
        let wakeSeries = { (text: String) in
            text.split(separator: "\n").filter { !$0.contains(#"kind="\#(kind)""#) }
        }
        #expect(wakeSeries(both) == wakeSeries(wakes), "every other series as without \(kind)")
        // Every kind has its push counters from the start, 0 until it pushed (as the gauges do).
        #expect(wakes.contains(#"liveactivity_pushes_sent_total{kind="\#(kind)"} 0"# + "\n"))
        for line in both.split(separator: "\n") where !line.hasPrefix("#") {
            #expect(line.split(separator: " ").count == 2, "\(line)")
        }
    }

    // MARK: - As the release before rendered it

    /// A report of wakes alone, as values (no database): every figure the text shows, two hosts.
    func wakesOnlyReport() -> StatsReport {
        var report = StatsReport()
        report.generatedAt = now
        report.active = 4
        report.byTypeAndEnvironment = [
            .init(activityType: .charging, environment: .production, count: 2),
            .init(activityType: .charging, environment: .sandbox, count: 1),
            .init(activityType: .debug, environment: .sandbox, count: 1),
        ]
        report.byAge = [("<5m", 1), ("5-30m", 1), ("30m-2h", 1), ("2-8h", 1), (">8h", 0)]
        report.oldestRegisteredAt = now - 180 * minute
        report.activeWakeups = 9
        report.lifetimeSent = 190
        report.topWakeups = [.init(token: "ab000000…", count: 7), .init(token: "ab000000…", count: 2)]
        report.lastDay = .init(runs: 1, sent: 90, failed: 10, removed: 3, expired: 0)
        report.lastWeek = .init(runs: 2, sent: 190, failed: 10, removed: 3, expired: 1)
        var charging = DeliveryReport.Window(activityType: .known(.charging))
        charging.delivered = 10
        charging.acked = 8
        charging.registrationHours = 10
        charging.delaySumMilliseconds = 30_000
        charging.delayBuckets = [0, 0, 2, 4, 1, 1, 0, 0, 0, 0, 0]
        var debug = DeliveryReport.Window(activityType: .known(.debug))
        debug.delivered = 1
        debug.registrationHours = 1
        report.delivery.lastDay = [charging, debug]
        report.delivery.lastWeek = [charging, debug]
        report.delivery.acksLastDay = [.matched: 8, .duplicate: 1, .unmatched: 1]
        report.delivery.acksLastWeek = [.matched: 8, .duplicate: 1, .unmatched: 1]
        report.delivery.acksLifetime = [.matched: 8, .duplicate: 1, .unmatched: 1]
        report.backingOff = [.init(environment: .production, count: 0), .init(environment: .sandbox, count: 1)]
        report.recentFaults = [
            .init(
                environment: .sandbox, kind: .configuration, reason: "BadEnvironmentKeyInToken", runs: 1, pushes: 40,
                lastAt: now - 10 * minute)
        ]
        report.lastRunAt = now - 10 * minute
        report.lastRunDurationMilliseconds = 1234
        report.lastRunOutcome = RunOutcome(stored: "faults: sandbox configuration BadEnvironmentKeyInToken (40 pushes)")
        report.day.start = StatsReport.Day.start(now: now)
        report.day.buckets = [.init(start: now - 10 * minute, runs: 1, active: 4, sent: 90, failed: 10)]
        report.day.failureReasons = [.init(reason: "ServiceUnavailable", count: 10)]
        report.day.removalReasons = [.init(reason: "Unregistered", count: 3)]
        report.day.lastRunFinishedAt = now - 10 * minute + 1234
        report.day.lastRunExitedNonZero = true
        report.day.hosts = [
            HostRun(host: "one", startedAt: now - 10 * minute, durationMilliseconds: 1234, failed: true),
            HostRun(host: "two", startedAt: now - 20 * minute, durationMilliseconds: 500, failed: false),
        ]
        return report
    }

    /// `wakesOnlyReport()`'s text as the release before push targets (a220b33) printed it.
    static let textBefore = """
        Active registrations: 4
          charging / production: 2
          charging / sandbox: 1
          debug / sandbox: 1
        By age: <5m 1, 5-30m 1, 30m-2h 1, 2-8h 1
        Oldest registration: 3 h 0 min ago
        Wakeups of active registrations: 9; delivered in all runs: 190
        Top wakeup counts: ab000000… 7, ab000000… 2
        Sweeps over 24 h: 1 runs, sent 90, failed 10, removed 3, expired 0, error rate 10.0%
        Sweeps over 7 d: 2 runs, sent 190, failed 10, removed 3, expired 1, error rate 5.0%
        Delivery over 24 h, charging: 10 answered 200, 8 acked (80.0%), delay median 3.5 s / p90 14.0 s, per registration-hour 1.0 pushes and 0.8 acked wakes (Apple advises 2-3)
        Delivery over 24 h, debug: 1 answered 200, 0 acked (0.0%), per registration-hour 1.0 pushes and 0.0 acked wakes (Apple advises 2-3)
        Acks over 24 h: matched 8, duplicate 1, unmatched 1
        Delivery over 7 d, charging: 10 answered 200, 8 acked (80.0%), delay median 3.5 s / p90 14.0 s, per registration-hour 1.0 pushes and 0.8 acked wakes (Apple advises 2-3)
        Delivery over 7 d, debug: 1 answered 200, 0 acked (0.0%), per registration-hour 1.0 pushes and 0.0 acked wakes (Apple advises 2-3)
        Acks over 7 d: matched 8, duplicate 1, unmatched 1
        Waiting after failures (back-off): production 0, sandbox 1
        Faults over 24 h:
          sandbox: configuration BadEnvironmentKeyInToken in 1 runs (40 pushes), last 10 min ago
        Last sweep: 10 min ago, took 1.2 s, faults: sandbox configuration BadEnvironmentKeyInToken (40 pushe…
        ALARM: no sweep finished in the last 3 minutes (last 9 min ago); the last sweep exited non-zero; host one recorded no sweep in the last 3 minutes (its last finished 9 min ago); is its cron running?; host two recorded no sweep in the last 3 minutes (its last finished 19 min ago); is its cron running?
        Hosts (last sweep each): one 10 min ago (exited non-zero), two 20 min ago
        Failure reasons over 24 h: ServiceUnavailable 10
        Removal reasons over 24 h: Unregistered 3
        """

    /// `wakesOnlyReport()`'s JSON as the release before push targets (a220b33) printed it.
    static let jsonBefore =
        #"{"generatedAt":1800000000000,"active":4,"byTypeAndEnvironment":[{"activityType":"charging","environment":"production","count":2},{"activityType":"charging","environment":"sandbox","count":1},{"activityType":"debug","environment":"sandbox","count":1}],"byAge":{"<5m":1,"5-30m":1,"30m-2h":1,"2-8h":1,">8h":0},"activeWakeups":9,"lifetimeSent":190,"topWakeups":[{"token":"ab000000…","count":7},{"token":"ab000000…","count":2}],"oldestRegisteredAt":1799989200000,"sweeps24h":{"runs":1,"sent":90,"failed":10,"removed":3,"expired":0,"errorRate":0.1000},"sweeps7d":{"runs":2,"sent":190,"failed":10,"removed":3,"expired":1,"errorRate":0.0500},"delivery":{"24h":{"byType":[{"activityType":"charging","delivered":10,"acked":8,"ackedShare":0.8000,"delayMedianSeconds":3.5000,"delayP90Seconds":14.0000,"delaySumMs":30000,"registrationHours":10,"pushesPerRegistrationHour":1.0000,"wakesPerRegistrationHour":0.8000},{"activityType":"debug","delivered":1,"acked":0,"ackedShare":0.0000,"delayMedianSeconds":null,"delayP90Seconds":null,"delaySumMs":0,"registrationHours":1,"pushesPerRegistrationHour":1.0000,"wakesPerRegistrationHour":0.0000}],"acks":{"matched":8,"duplicate":1,"unmatched":1}},"7d":{"byType":[{"activityType":"charging","delivered":10,"acked":8,"ackedShare":0.8000,"delayMedianSeconds":3.5000,"delayP90Seconds":14.0000,"delaySumMs":30000,"registrationHours":10,"pushesPerRegistrationHour":1.0000,"wakesPerRegistrationHour":0.8000},{"activityType":"debug","delivered":1,"acked":0,"ackedShare":0.0000,"delayMedianSeconds":null,"delayP90Seconds":null,"delaySumMs":0,"registrationHours":1,"pushesPerRegistrationHour":1.0000,"wakesPerRegistrationHour":0.0000}],"acks":{"matched":8,"duplicate":1,"unmatched":1}},"acksLifetime":{"matched":8,"duplicate":1,"unmatched":1},"advisedPerHour":[2,3]},"backingOff":{"production":0,"sandbox":1},"faults24h":[{"environment":"sandbox","kind":"configuration","reason":"BadEnvironmentKeyInToken","runs":1,"pushes":40,"lastAt":1799999400000}],"lastRunAt":1799999400000,"lastRunDurationMs":1234,"lastRunOutcome":"faults: sandbox configuration BadEnvironmentKeyInToken (40 pushe…","day":{"start":1799914200000,"bucketMinutes":10,"buckets":[{"start":1799999400000,"runs":1,"active":4,"sent":90,"failed":10}],"hours":[],"failureReasons":{"ServiceUnavailable":10},"removalReasons":{"Unregistered":3}},"lastRunFinishedAt":1799999401234,"lastRunExitedNonZero":true,"alarms":["noSweepFinishedLately","lastSweepFailed","hostStopped","hostStopped"],"stoppedHosts":["one","two"],"hosts":[{"host":"one","lastRunAt":1799999400000,"lastRunDurationMs":1234,"lastRunFinishedAt":1799999401234,"lastRunExitedNonZero":true},{"host":"two","lastRunAt":1799998800000,"lastRunDurationMs":500,"lastRunFinishedAt":1799998800500,"lastRunExitedNonZero":false}]}"#

    @Test func aReportOfWakesAloneReadsAsTheReleaseBefore() throws {
        let report = wakesOnlyReport()
        #expect(report.text == Self.textBefore, "\(report.text)")
        // The JSON: every member as it was, and only the widgets' members added (empty here).
        let before = try object(Self.jsonBefore)
        let now = try object(report.json)
        #expect(Self.holds(now, before), "\(report.json)")
        #expect(
            Self.added(now, before).sorted() == [
                "day.otherKinds", "delivery.otherKinds", "faults24h.pushKind", "lifetimeOthers", "otherBackingOff",
                "otherTargets", "sweeps24h.others", "sweeps7d.others", "withheld",
            ])
    }

    @Test func widgetsFiguresAddLinesAndLeaveEveryWakeLineAsTheReleaseBefore() throws {
        var report = wakesOnlyReport()
        report.otherTargets = [.init(activityType: .charging, environment: .production, count: 3, kind: .widgets)]
        report.lifetimeOthers = [.init(kind: .widgets, sent: 12, failed: 1, removed: 0)]
        report.lastDay.others = [.init(kind: .widgets, sent: 6, failed: 1, removed: 0)]
        report.lastWeek.others = [.init(kind: .widgets, sent: 12, failed: 1, removed: 0)]
        report.backingOff.append(.init(environment: .sandbox, kind: .widgets, count: 2))
        report.recentFaults.append(
            .init(
                environment: .sandbox, pushKind: .widgets, kind: .configuration, reason: "BadTopic", runs: 1, pushes: 3,
                lastAt: now - 10 * minute))
        var widgets = DeliveryReport.Window(activityType: nil, kind: .widgets)
        widgets.delivered = 6
        widgets.registrationHours = 3
        report.delivery.otherKindsLastDay = [widgets]
        report.delivery.otherKindsLastWeek = [widgets]
        report.day.failureReasons.append(.init(reason: "TooManyRequests", count: 1, kind: .widgets))
        report.day.otherBuckets = [
            "widgets": [.init(start: now - 10 * minute, runs: 1, active: 3, sent: 6, failed: 1, kind: .widgets)]
        ]
        let text = report.text
        let widgetLines = [
            "Widgets targets: 3", "  charging / production: 3", "Widgets pushes delivered in all runs: 12",
            "  widgets: sent 6, failed 1, removed 0, error rate 14.3%",
            "  widgets: sent 12, failed 1, removed 0, error rate 7.7%",
            "Widgets pushes over 24 h: 6 answered 200, per target-hour 2.0 pushes",
            "Widgets pushes over 7 d: 6 answered 200, per target-hour 2.0 pushes",
            "Widgets targets waiting after failures: sandbox 2",
            "  sandbox widgets: configuration BadTopic in 1 runs (3 pushes), last 10 min ago",
            "Widgets failure reasons over 24 h: TooManyRequests 1",
        ]
        let lines = text.components(separatedBy: "\n")
        for line in widgetLines { #expect(lines.contains(line), "\(line) in:\n\(text)") }
        #expect(
            lines.filter { !widgetLines.contains($0) } == Self.textBefore.components(separatedBy: "\n"), "\(text)")
        let json = try object(report.json)
        #expect(Self.holds(json, try object(Self.jsonBefore).filter { $0.key != "faults24h" }))
        #expect((json["faults24h"] as? [[String: Any]])?.last?["pushKind"] as? String == "widgets")
        #expect((json["faults24h"] as? [[String: Any]])?.first?["pushKind"] as? String == "")
        // The page: the widgets' lifetime figure beside the wakes', neither labelled by app.
        let page = StatusPage.render(report)
        #expect(
            page.contains(
                ". Delivered over all recorded runs: <span data-figure=\"lifetimeSent\" data-value=\"190\">190</span>. Widgets pushes"
                    + " delivered over all recorded runs: <span data-figure=\"lifetimeOthers.widgets.sent\" data-value=\"12\">12</span>."
            ))
        #expect(!page.contains("Default app") && page.contains("Wake-ups of the active registrations: "))
    }

    /// Whether `new` holds every member of `old` with the same value (arrays: the same length,
    /// each element holding the old one's).
    static func holds(_ new: Any, _ old: Any) -> Bool {
        if let old = old as? [String: Any] {
            guard let new = new as? [String: Any] else { return false }
            return old.allSatisfy { key, value in new[key].map { holds($0, value) } ?? false }
        }
        if let old = old as? [Any] {
            guard let new = new as? [Any], new.count == old.count else { return false }
            return zip(new, old).allSatisfy { holds($0, $1) }
        }
        return (new as? NSObject) == (old as? NSObject)
    }

    /// The members `new` has and `old` has not, by their paths (an array's elements' under the array's name).
    static func added(_ new: Any, _ old: Any, at path: String = "") -> Set<String> {
        func name(_ key: String) -> String { path.isEmpty ? key : path + "." + key }
        if let new = new as? [String: Any], let old = old as? [String: Any] {
            return new.reduce(into: Set<String>()) { found, member in
                if let before = old[member.key] {
                    found.formUnion(added(member.value, before, at: name(member.key)))
                } else {
                    found.insert(name(member.key))
                }
            }
        }
        if let new = new as? [Any], let old = old as? [Any] {
            return zip(new, old).reduce(into: Set<String>()) { $0.formUnion(added($1.0, $1.1, at: path)) }
        }
        return []
    }

    func object(_ json: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }
}
