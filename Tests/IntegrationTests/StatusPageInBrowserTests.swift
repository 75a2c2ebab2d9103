import Foundation
import LiveActivityDomain
import LiveActivityStore
import TestSupport
import Testing

/// The status page as a person sees it (SPEC 3 and 8): the real system - nginx, the responder,
/// the stand-in, the sweep as cron runs it - with registrations, pushes that fail and a fault;
/// `/wakeup/status` loaded through nginx into headless Chromium; the DOM it built checked (the
/// charts, the alarm exactly when it is due, every figure equal to `stats --json` for the same
/// database) and its picture saved, wide and phone-sized, under `.build/status-page/` where a
/// failing run leaves it for a person to look at (a folder per engine, so one case's pictures do
/// not overwrite the other's).
@Suite("Status page in a browser")
struct StatusPageInBrowserTests {
    static let screenshots = packageRoot + "/.build/status-page"

    @Test(arguments: TestEngine.real)
    func thePageShowsTheFiguresOfStatsJSONAndTheAlarmExactlyWhenDue(engine: TestEngine) throws {
        guard let browser = try openBrowser() else { return }
        let shots = try screenshots(engine)
        let standIn = try StandInStack()
        let live = try LiveStack(engine)
        let url = "http://127.0.0.1:\(live.port)/wakeup/status"

        // The day before, as the sweep records its runs (one per 10 minutes here), so the charts
        // have a history to draw: registrations rising and falling twice a day, an hour of failures.
        // The oldest 22 hours back, not 24: on a loaded machine the pages are made minutes after
        // this, and a run that left the 24-hour window between the page and `stats --json` made
        // their day's sums differ by it.
        let history = live.database
        let now = Clock().now()
        for slot in Int64(1)...132 {
            var run = SweepSummary()
            run.startedAt = now - slot * 600_000
            run.durationMilliseconds = 200 + slot
            run.active = Int(20 + abs(slot % 72 - 36))
            run.sent = run.active / 3
            run.failed = slot >= 100 && slot < 106 ? 12 : Int(slot % 5 == 0 ? 1 : 0)
            if run.failed > 0 {
                run.failureReasons = [slot >= 100 ? "ServiceUnavailable" : "CURLE_OPERATION_TIMEDOUT": run.failed]
            }
            // Wakes the cadence withheld: unchanged data here, Low Power Mode there.
            if slot % 4 == 0 {
                run.withheld[WithheldWakes.Group(activityType: .charging, environment: .production, reason: .stretched)] = 2
            }
            if slot % 9 == 0 {
                run.withheld[WithheldWakes.Group(activityType: .debug, environment: .sandbox, reason: .lowPower)] = 1
            }
            try history.record(run)
        }

        // Traffic: registrations of both types and environments; one push APNs refuses for now
        // (kept, backing off) and one token APNs says is gone (removed). Three carry a widget
        // extension's token (iOS 26 push widgets): one of those APNs says is gone, its widgets
        // target removed alone; another's widgets push fails for now.
        let tokens = (1...6).map { testToken(1700 + $0) }
        let widgets = (1...3).map { testToken(1750 + $0) }
        for (index, token) in tokens.enumerated() {
            let path = index < 4 ? "/wakeup" : "/dev/wakeup"
            let type = index % 2 == 0 ? "charging" : "debug"
            let body =
                index < 3
                ? "{\"pushToken\":\"\(token)\",\"activityType\":\"\(type)\",\"widgetPushToken\":\"\(widgets[index])\"}"
                : registerBody(token, type: type)
            #expect(try live.request("POST", path, body: body).status == 200)
        }
        // A phone with Background App Refresh off: its wakes are withheld, counted as paused.
        let paused = testToken(1790)
        let pausedBody = "{\"pushToken\":\"\(paused)\",\"activityType\":\"charging\",\"backgroundRefresh\":\"denied\"}"
        #expect(try live.request("POST", "/wakeup", body: pausedBody).status == 200)
        try standIn.state().script(token: tokens[1], status: 503, reason: "ServiceUnavailable")
        try standIn.state().script(token: tokens[4], status: 410, reason: "Unregistered")
        try standIn.state().script(token: widgets[0], status: 410, reason: "Unregistered")
        try standIn.state().script(token: widgets[2], status: 500, reason: "InternalServerError")
        let first = try sweep(standIn, live)
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        #expect(first.stdout.contains(" widgets_sent=1 ") && first.stdout.contains(" widgets_removed=1 "), "\(first.stdout)")
        // A sweep that finished just now and exited 0: no alarm; widgets beside wakes.
        let healthy = try check(browser, url, live, alarms: [], label: "healthy", otherKinds: ["widgets"])
        for figure in [
            "otherTargets.widgets/charging/production", "day.otherKinds.widgets.sent", "sweeps24h.others.widgets.removed",
            "day.otherKinds.widgets.removalReasons.Unregistered", "otherBackingOff.widgets/production",
        ] {
            #expect(healthy.contains("data-figure=\"\(figure)\""), "the page shows \(figure)")
        }
        #expect(first.stdout.contains(" withheld=paused:1"), "\(first.stdout)")
        for (figure, value) in [
            ("withheld.lastDay.charging/production.paused", 1), ("withheld.lastDay.charging/production.stretched", 66),
            ("withheld.lifetime.debug/sandbox.lowPower", 14),
        ] {
            #expect(healthy.contains("data-figure=\"\(figure)\" data-value=\"\(value)\""), "the page shows \(figure) = \(value)")
        }
        // One app: the plain labels, as the page always had them.
        let plain = healthy.contains("<span class=\"label\">Sent, 24 h</span>") && !healthy.contains("Default app")
        #expect(plain, "one app's page names no default app")
        let noAcks = healthy.contains("<strong>No acks yet.</strong>")
        #expect(noAcks, "the acks chart should say there are none yet")
        try browser.screenshot(url, to: shots + "/healthy-wide.png", width: 1280, height: 2350)
        try browser.screenshot(url, to: shots + "/healthy-phone.png", width: 390, height: 3900)
        // docs/OPERATIONS.md's picture is this one: `LIVEACTIVITY_DOCS_SCREENSHOT=1` puts it in docs/.
        if engine == .sqlite && ProcessInfo.processInfo.environment["LIVEACTIVITY_DOCS_SCREENSHOT"] == "1" {
            try? FileManager.default.removeItem(atPath: packageRoot + "/docs/status-page.png")
            try FileManager.default.copyItem(
                atPath: shots + "/healthy-wide.png", toPath: packageRoot + "/docs/status-page.png")
        }

        // A fault: the next sweep's sandbox push answers InvalidProviderToken, a configuration
        // fault, and the sweep exits 1. The page says so in words and colour.
        let fresh = testToken(1799)
        #expect(try live.request("POST", "/dev/wakeup", body: registerBody(fresh, type: "debug")).status == 200)
        try standIn.state().script(token: fresh, status: 403, reason: "InvalidProviderToken")
        let failing = try sweep(standIn, live)
        #expect(failing.status == 1, "\(failing.stdout)\(failing.stderr)")
        let alarmed = try check(browser, url, live, alarms: ["lastSweepFailed"], label: "alarm")
        let inWords = alarmed.contains("Alarm: the sweeps need attention") && alarmed.contains("InvalidProviderToken")
        #expect(inWords, "the alarm in words, naming the fault")
        try browser.screenshot(url, to: shots + "/alarm-wide.png", width: 1280, height: 2050)
        try browser.screenshot(url, to: shots + "/alarm-phone.png", width: 390, height: 3300)

        // Several hosts (SPEC 5): host-c's cron stopped ten minutes ago while host-b sweeps on.
        // The page lists every host's last sweep and its alarm names host-c.
        var stale = SweepSummary()
        stale.startedAt = Clock().now() - 600_000
        stale.durationMilliseconds = 300
        try history.record(stale, host: "host-c")
        let other = try sweep(standIn, live, host: "host-b")
        #expect(other.status == 0, "\(other.stdout)\(other.stderr)")
        let stopped = try check(browser, url, live, alarms: ["hostStopped"], label: "host-stopped")
        let named = stopped.contains(
            "Host <strong data-figure=\"stoppedHosts\" data-value=\"host-c\">host-c</strong> recorded no sweep")
        #expect(named, "the alarm names the host whose cron stopped")
        for host in ["test-host", "host-b", "host-c"] {
            #expect(stopped.contains("data-figure=\"hosts.\(host).lastRunAt\""), "\(host) listed with its last sweep")
        }
        try browser.screenshot(url, to: shots + "/host-stopped-wide.png", width: 1280, height: 2050)

        // No token on the page, not even its first 8 characters (nor in the access log).
        for token in tokens + widgets + [fresh] {
            let shown = alarmed.contains(String(token.prefix(8))) || live.accessLog.contains(String(token.prefix(8)))
            #expect(!shown, "token \(token.prefix(8)) on the page or in the access log")
        }
    }

    /// Several apps (SPEC 6, 7): each further app's pushes apart on the page - its chart of pushes
    /// answered 200, its wakes per hour, its sweep totals under its name - every figure equal to
    /// `stats --json`; the default app's as with one app; app two's gone token counted as its own.
    @Test(arguments: TestEngine.real)
    func eachFurtherAppShowsApartWithTheFiguresOfStatsJSON(engine: TestEngine) throws {
        guard let browser = try openBrowser() else { return }
        let shots = try screenshots(engine)
        let keys = try SeveralAppsEndToEndTests.Keys()
        let (standIn, live) = try SeveralAppsEndToEndTests.deployment(engine, keys)
        let url = "http://127.0.0.1:\(live.port)/wakeup/status"

        // The default app three devices, app two two (one of them gone), app three one.
        let tokens = (1...6).map { testToken(1820 + $0) }
        for (path, token) in [
            ("/wakeup", tokens[0]), ("/wakeup", tokens[1]), ("/wakeup", tokens[2]), ("/two/wakeup", tokens[3]),
            ("/two/wakeup", tokens[4]), ("/three/wakeup", tokens[5]),
        ] {
            #expect(try live.request("POST", path, body: registerBody(token)).status == 200, "\(path)")
        }
        try standIn.state().script(token: tokens[4], status: 410, reason: "Unregistered")
        let swept = try runCommand(
            product("liveactivity-sweep"), environment: SeveralAppsEndToEndTests.sweepEnvironment(standIn, live, keys))
        let counted = [" sent=3 ", " two/sent=1 ", " two/removed=1 ", " three/sent=1 "].allSatisfy(swept.stdout.contains)
        #expect(swept.status == 0 && counted, "\(swept.stdout)\(swept.stderr)")

        let dom = try check(
            browser, url, live, alarms: [], label: "apps", otherKinds: [], appCharts: ["app-three-wake", "app-two-wake"])
        let expected = [
            ("day.sent", "3"), ("day.apps.two.wake.sent", "1"), ("day.apps.three.wake.sent", "1"),
            ("sweeps24h.apps.two.wake.sent", "1"), ("sweeps24h.apps.two.wake.removed", "1"),
            ("sweeps24h.apps.three.wake.sent", "1"), ("sweeps24h.sent", "3"), ("lifetimeSent", "3"),
            ("lifetimeApps.two.wake.sent", "1"), ("lifetimeApps.three.wake.sent", "1"),
        ]
        let onPage = Dictionary(figures(dom).map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        for (name, value) in expected {
            #expect(onPage[name] == value, "\(name) is \(onPage[name] ?? "absent") on the page, \(value) swept")
        }
        // The plain push figures are the default app's (as in `stats`): labelled so beside other apps'.
        for title in [
            "App two: wakes acknowledged, per hour", "App three: wakes acknowledged, per hour", "App two: wake removed",
            "<span class=\"label\">Default app: sent, 24 h</span>", "<th scope=\"row\">Default app: sent (200)</th>",
            "<th scope=\"row\">Runs</th>", "Default app: pushes answered 200, per 10 minutes.",
            "Default app: delivered over all recorded runs: ", "Wake-ups of the active registrations, every app's: ",
        ] {
            #expect(dom.contains(title), "the page shows \(title)")
        }
        // Each app's registrations on a row of their own, named as `stats` names them.
        for (row, figure, count) in [
            ("charging", "charging/production", 3), ("App three: charging", "three/charging/production", 1),
            ("App two: charging", "two/charging/production", 1),
        ] {
            let shown = dom.contains(
                "<tr><td>\(row)</td><td>production</td><td class=\"n\" data-figure=\"byTypeAndEnvironment.\(figure)\" data-value=\"\(count)\""
            )
            #expect(shown, "the row \(row): \(count)")
        }
        try browser.screenshot(url, to: shots + "/apps-wide.png", width: 1280, height: 2600)
        try browser.screenshot(url, to: shots + "/apps-phone.png", width: 390, height: 4200)

        // App two's bundle id wrong (TopicDisallowed): its fault on the page, naming the app.
        for (path, token) in [("/two/wakeup", tokens[3]), ("/wakeup", tokens[0])] {
            #expect(try live.request("POST", path, body: registerBody(token)).status == 200, "\(path)")
        }
        var environment = SeveralAppsEndToEndTests.sweepEnvironment(standIn, live, keys)
        environment["APNS_BUNDLE_ID_TWO"] = "org.two.wrong"
        let faulted = try runCommand(product("liveactivity-sweep"), environment: environment)
        #expect(faulted.status == 1, "\(faulted.stdout)\(faulted.stderr)")
        let alarmed = try check(
            browser, url, live, alarms: ["lastSweepFailed"], label: "apps-fault", otherKinds: [],
            appCharts: ["app-three-wake", "app-two-wake"])
        let named =
            alarmed.contains("the pushes of app <strong data-figure=\"failingApps\" data-value=\"two\">two</strong>")
            && alarmed.contains("app <strong>two</strong>, configuration <code>TopicDisallowed</code>")
        #expect(named, "the alarm and the fault name app two")
        #expect(
            alarmed.contains("data-figure=\"faults24h.two/production/configuration/TopicDisallowed.pushes\" data-value=\"1\""))
        try browser.screenshot(url, to: shots + "/apps-fault-wide.png", width: 1280, height: 2600)
    }

    // MARK: - Helpers

    /// Headless Chromium, its deaths logged beside the screenshots; nil, with the test's issue
    /// recorded, where it is not installed.
    func openBrowser() throws -> HeadlessChromium? {
        guard var browser = HeadlessChromium() else {
            Issue.record(Comment(rawValue: HeadlessChromium.missing))
            return nil
        }
        try FileManager.default.createDirectory(atPath: Self.screenshots, withIntermediateDirectories: true)
        browser.deathLog = Self.screenshots + "/chromium-deaths.log"
        return browser
    }

    /// This engine's folder of pictures under `screenshots`, made if missing.
    func screenshots(_ engine: TestEngine) throws -> String {
        let folder = Self.screenshots + "/\(engine)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// One cron run against the stack's database, with the stand-in's settings, as `host` (the
    /// name the day's history was recorded under, unless another host is meant).
    func sweep(_ standIn: StandInStack, _ live: LiveStack, host: String = "test-host") throws -> CommandResult {
        var environment = standIn.sweepEnvironment(database: live.databasePath)
        environment.merge(live.database.programEnvironment) { _, new in new }
        environment["LIVEACTIVITY_HOST_NAME"] = host
        return try runCommand(product("liveactivity-sweep"), environment: environment)
    }

    /// Loads the page in the browser and checks it against `stats --json` and `stats --html`
    /// of the same database; returns the DOM.
    func check(
        _ browser: HeadlessChromium, _ url: String, _ live: LiveStack, alarms: [String], label: String,
        otherKinds: [String] = ["widgets"], appCharts: [String] = []
    ) throws -> String {
        let kept = "the screenshots of this run are in \(Self.screenshots)"
        let served = try live.request("GET", "/wakeup/status")
        #expect(served.status == 200)
        #expect(served.header("Content-Type") == "text/html; charset=utf-8")
        #expect(served.header("Cache-Control") == "no-store")
        #expect(served.header("Content-Security-Policy") == "default-src 'none'; style-src 'unsafe-inline'; img-src data:")

        let dom = try browser.dom(url)
        let environment = ["LIVEACTIVITY_DB": live.databasePath, "PATH": "/usr/bin:/bin"]
        let json = try runCommand(product("liveactivity-sweep"), ["stats", "--json"], environment: environment)
        let html = try runCommand(product("liveactivity-sweep"), ["stats", "--html"], environment: environment)
        #expect(json.status == 0 && html.status == 0, "\(json.stderr)\(html.stderr)")
        let stats = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "stats --json: \(json.stdout)")

        // The browser built the page: three charts, each an image with a title and a table.
        // (Booleans first, so that a failure says what is missing, not the whole DOM.)
        let heading = dom.contains("<h1>Live Activity wake-ups</h1>")
        #expect(heading, "\(label): no heading; \(kept)")
        let charts = otherKinds.map { "\($0)-sent-chart" } + appCharts.map { "\($0)-sent-chart" }
        for chart in ["active-chart", "sent-chart", "failed-chart"] + charts {
            let drawn = dom.contains("<svg role=\"img\" aria-labelledby=\"\(chart)-title\"")
            let titled = dom.contains("<title id=\"\(chart)-title\">")
            #expect(drawn && titled, "\(label): \(chart) drawn \(drawn), titled \(titled); \(kept)")
        }
        let tables = dom.components(separatedBy: "<details><summary>The numbers</summary><table>").count - 1
        #expect(tables == 3 + charts.count, "\(label): \(tables) tables of numbers under the charts")

        // The alarm exactly when due, and the same in the JSON.
        let alarmShown = dom.contains("data-alarm=\"\(!alarms.isEmpty)\"")
        #expect(alarmShown, "\(label): the alarm should be \(alarms.isEmpty ? "absent" : "shown"); \(kept)")
        #expect(stats["alarms"] as? [String] == alarms, "\(label)")
        #expect(figures(dom).filter { $0.name == "alarms" }.map(\.value) == alarms, "\(label)")

        // Every figure on the page is the JSON's, and `stats --html` shows the same ones.
        let onPage = figures(dom)
        #expect(onPage.count > 20, "\(label): \(onPage.count) figures")
        for (name, value) in onPage where !Self.moving(name) && name != "alarms" {
            let expected = Self.jsonValue(of: name, in: stats)
            #expect(
                expected != nil && expected == value,
                "\(label): \(name) is \(value) on the page, \(expected ?? "absent") in stats --json")
        }
        let printed = figures(html.stdout).filter { !Self.moving($0.name) }
        #expect(
            printed.map { "\($0.name)=\($0.value)" } == onPage.filter { !Self.moving($0.name) }.map { "\($0.name)=\($0.value)" })
        return dom
    }

    /// Figures that depend on the moment the page was made (ages, the page's own time).
    static func moving(_ name: String) -> Bool { name == "generatedAt" || name.hasPrefix("byAge.") }

    /// The `data-figure`/`data-value` pairs of a page, in order (the DOM keeps attribute order).
    func figures(_ page: String) -> [(name: String, value: String)] {
        let pattern = try! NSRegularExpression(pattern: #"data-figure="([^"]+)" data-value="([^"]*)""#)
        let text = page as NSString
        return pattern.matches(in: page, range: NSRange(location: 0, length: text.length)).map { match in
            let name = text.substring(with: match.range(at: 1)).replacingOccurrences(of: "&lt;", with: "<")
                .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
            return (name, text.substring(with: match.range(at: 2)))
        }
    }

    /// What `stats --json` says for a figure the page names; nil for a name it has no place for.
    static func jsonValue(of name: String, in stats: [String: Any]) -> String? {
        func number(_ value: Any?) -> String? { (value as? NSNumber).map { String($0.int64Value) } }
        func sum(_ list: Any?, _ key: String) -> String? {
            (list as? [[String: Any]]).map { String($0.reduce(Int64(0)) { $0 + (($1[key] as? NSNumber)?.int64Value ?? 0) }) }
        }
        // A further app's name and a slash before what is its own (`two/charging/production`).
        func app(_ object: [String: Any]) -> String { (object["app"] as? String).map { $0 + "/" } ?? "" }
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        let day = stats["day"] as? [String: Any]
        switch (parts[0], parts.count > 1 ? parts[1] : nil) {
        case ("active", nil), ("activeWakeups", nil), ("lifetimeSent", nil), ("lastRunAt", nil), ("lastRunDurationMs", nil):
            return number(stats[name])
        case ("backingOffTotal", nil):
            return (stats["backingOff"] as? [String: NSNumber]).map { String($0.values.reduce(Int64(0)) { $0 + $1.int64Value }) }
        case ("backingOff", let environment?): return number((stats["backingOff"] as? [String: Any])?[environment])
        case ("sweeps24h", let key?), ("sweeps7d", let key?), ("lifetimeOthers", let key?), ("lifetimeApps", let key?):
            // `others.widgets.sent`, `two.wake.sent`: a path into the period's object.
            var value: Any? = stats[parts[0]]
            for step in key.split(separator: ".") { value = (value as? [String: Any])?[String(step)] }
            return number(value)
        case ("otherTargets", let group?):
            let groups = stats["otherTargets"] as? [[String: Any]] ?? []
            return number(
                groups.first { "\($0["kind"] ?? "")/\(app($0))\($0["activityType"] ?? "")/\($0["environment"] ?? "")" == group }?[
                    "count"])
        case ("otherBackingOff", let group?):
            let entries = stats["otherBackingOff"] as? [[String: Any]] ?? []
            return number(entries.first { "\($0["kind"] ?? "")/\($0["environment"] ?? "")" == group }?["count"])
        case ("day", let rest?) where rest.hasPrefix("apps."):
            // `apps.two.wake.sent` sums that app's kind's buckets.
            let steps = rest.split(separator: ".").map(String.init)
            guard steps.count == 4 else { return nil }
            let kind = ((day?["apps"] as? [String: Any])?[steps[1]] as? [String: Any])?[steps[2]] as? [String: Any]
            return sum(kind?["buckets"], steps[3])
        case ("day", let rest?) where rest.hasPrefix("otherKinds."):
            // `otherKinds.widgets.sent` sums the kind's buckets; `otherKinds.widgets.failureReasons.X` a reason.
            let steps = rest.split(separator: ".", maxSplits: 3).map(String.init)
            let kind = (day?["otherKinds"] as? [String: Any])?[steps[1]] as? [String: Any]
            if steps.count == 3 { return sum(kind?["buckets"], steps[2]) }
            return steps.count == 4 ? number((kind?[steps[2]] as? [String: Any])?[steps[3]]) : nil
        case ("byTypeAndEnvironment", let group?):
            let groups = stats["byTypeAndEnvironment"] as? [[String: Any]] ?? []
            return number(groups.first { "\(app($0))\($0["activityType"] ?? "")/\($0["environment"] ?? "")" == group }?["count"])
        case ("day", "sent"), ("day", "failed"): return sum(day?["buckets"], parts[1])
        case ("day", let rest?) where rest.hasPrefix("failureReasons.") || rest.hasPrefix("removalReasons."):
            let (list, reason) = (String(rest.prefix { $0 != "." }), String(rest.drop { $0 != "." }.dropFirst()))
            return number((day?[list] as? [String: Any])?[reason])
        case ("faults24h", let rest?):
            let key = rest.split(separator: ".").last.map(String.init) ?? ""
            let which = String(rest.dropLast(key.count + 1))
            let faults = stats["faults24h"] as? [[String: Any]] ?? []
            let fault = faults.first { fault in
                let scope = (fault["pushKind"] as? String).map { $0.isEmpty ? "" : $0 + "/" } ?? ""
                return "\(app(fault))\(fault["environment"] ?? "")/\(scope)\(fault["kind"] ?? "")/\(fault["reason"] ?? "")"
                    == which
            }
            return number(fault?[key])
        case ("alarms", nil): return nil
        case ("stoppedHosts", nil): return (stats["stoppedHosts"] as? [String])?.joined(separator: ",")
        case ("failingApps", nil):
            // The further apps with a fault in the last sweep (one here).
            let last = number(stats["lastRunAt"])
            let faults = stats["faults24h"] as? [[String: Any]] ?? []
            let apps = Set(faults.filter { number($0["lastAt"]) == last }.compactMap { $0["app"] as? String })
            return apps.sorted().joined(separator: ",")
        case ("hosts", let rest?):
            let key = rest.split(separator: ".").last.map(String.init) ?? ""
            let host = String(rest.dropLast(key.count + 1))
            return number((stats["hosts"] as? [[String: Any]] ?? []).first { $0["host"] as? String == host }?[key])
        case ("withheld", let rest?):
            // `lastDay.two/charging/production.paused`: that window's entry, 0 where it has none.
            let steps = rest.split(separator: ".").map(String.init)
            guard steps.count == 3, let list = (stats["withheld"] as? [String: Any])?[steps[0]] as? [[String: Any]] else {
                return nil
            }
            let entry = list.first {
                "\(app($0))\($0["activityType"] ?? "")/\($0["environment"] ?? "")" == steps[1]
                    && $0["reason"] as? String == steps[2]
            }
            guard let entry else { return "0" }
            return number(entry["count"])
        case ("acks", nil):
            let hours = day?["hours"] as? [[String: Any]] ?? []
            return hours.allSatisfy { $0["acknowledged"] is NSNull } ? "none" : nil
        default: return nil
        }
    }
}
