import Foundation
import LiveActivityDomain
import LiveActivityFigures
import LiveActivityStore
import TestSupport
import Testing

/// A database a previous release left behind, upgraded (issue 31 point 1, issue 34, SPEC 7's
/// figures per app): made by that
/// release's own programs (`scripts/make-upgrade-fixture`: registrations of both types and
/// environments, pushes answered 200, 410, 500 and BadDeviceToken, acks, two sweeps), restored
/// from its dump, opened by this build - which migrates it to push targets - and compared with
/// what that release itself said of it: every registration's `history --json`, the `stats --json`
/// report at the time it was made, and `/wakeup/metrics`.
@Suite("Upgrade from the previous release")
struct UpgradeFromPreviousReleaseTests {
    /// The releases the fixtures were made by (`Tests/Fixtures/upgrade-from-<revision>`): the
    /// last before push targets (issue 31), the last before several apps (issue 34), and the last
    /// before the figures that count pushes counted them per app.
    static let fixtures = [
        "Tests/Fixtures/upgrade-from-a220b33", "Tests/Fixtures/upgrade-from-728a968", "Tests/Fixtures/upgrade-from-3773c25",
    ]

    @Test(arguments: TestEngine.real, fixtures)
    func everyRegistrationItsHistoryAndItsFiguresAreKept(engine: TestEngine, fixture: String) throws {
        let store = try TestDatabase(engine, label: "upgrade")
        try restore(fixture, into: store)

        // The operator's first command after the upgrade migrates it, as the sweep's would.
        let stats = try runCommand(
            product("liveactivity-sweep"), ["stats", "--json"],
            environment: store.programEnvironment.merging(["PATH": "/usr/bin:/bin"]) { _, new in new })
        #expect(stats.status == 0, "\(stats.stderr)")

        // Every registration, as the previous release's `history --json` told it.
        let histories = try Documents.text("\(fixture)/\(store.kind)-history.jsonl").split(separator: "\n")
        #expect(histories.count == 10, "twelve registered, one 410 and one BadDeviceToken removed")
        for line in histories {
            let old = try json(String(line))
            let prefix = try #require(old["token"] as? String)
            let run = try runCommand(
                product("liveactivity-sweep"), ["history", prefix, "--json"],
                environment: store.programEnvironment.merging(["PATH": "/usr/bin:/bin"]) { _, new in new })
            #expect(run.status == 0, "\(run.stderr)")
            // Every member as it was; the only one added is the diagnostics' hints (issue 50).
            var new = try json(run.stdout)
            #expect(new["hints"] is [Any], "history of \(prefix): \(run.stdout)")
            new.removeValue(forKey: "hints")
            #expect(
                NSDictionary(dictionary: old).isEqual(to: new), "history of \(prefix): was \(line), is \(run.stdout)")
        }

        // The figures at the time the release made its report: every one it showed, the same.
        let oldStats = try json(try Documents.text("\(fixture)/\(store.kind)-stats.json"))
        let generatedAt = try #require((oldStats["generatedAt"] as? NSNumber)?.int64Value)
        let newStats = try json(try store.statsReport(now: generatedAt).json)
        let differences = Self.differences(old: oldStats, new: newStats, at: "stats")
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")

        // The lifetime counters of /wakeup/metrics: every series the release showed, the same.
        let oldMetrics = Self.series(try Documents.text("\(fixture)/\(store.kind)-metrics.txt"))
        let newMetrics = Self.series(PrometheusMetrics.render(try store.metricsSnapshot()))
        #expect(!oldMetrics.isEmpty)
        for (name, value) in oldMetrics {
            #expect(newMetrics[name] == value, "\(name): was \(value), is \(newMetrics[name].map { "\($0)" } ?? "missing")")
        }

        // Each registration is its wake target now, proven where it was, and no widgets target.
        let sweep = try store.sweep()
        defer { sweep.close() }
        #expect(try sweep.groups().allSatisfy { $0.kind == .wake })
        #expect(try sweep.registrationCount() == 10)
        #expect(try store.scalar("SELECT count(*) FROM push_targets WHERE push_token <> registration_token") == 0)
        // Everything stored belongs to the default app (issue 34), its counters too, and so does
        // every figure that counts pushes: the runs', the hours' and the acks'.
        for table in [
            "push_targets", "target_groups", "delivery_hours", "ack_hours", "ack_totals", "ack_delay_totals", "sweep_run_kinds",
            "sweep_kind_totals",
        ] {
            #expect(try store.scalar("SELECT count(*) FROM \(table) WHERE app <> 'default'") == 0, "\(table)")
            #expect(try store.scalar("SELECT count(*) FROM \(table)") ?? 0 > 0, "\(table) kept its rows")
        }
    }

    /// The wake-ups index the releases kept is gone once upgraded (SQLite's schema step 19,
    /// PostgreSQL's 10: it moved on every push), the targets' indexes are a new database's, and
    /// the most-pushed targets are the same, in the same order: by count, then by token.
    @Test(arguments: TestEngine.real)
    func theMostPushedTargetsNeedNoIndexOfTheirOwn(engine: TestEngine) throws {
        let store = try TestDatabase(engine, label: "top-wakeups")
        try restore(try #require(Self.fixtures.last), into: store)
        // Counts 0 to 3 by the token's rank, so the top five hold ties broken by the token.
        try store.execute(
            """
            UPDATE push_targets SET push_count = (SELECT count(*) FROM push_targets o
                WHERE o.registration_token < push_targets.registration_token) % 4
            """)
        let counted = try store.rows("SELECT registration_token, push_count FROM push_targets WHERE push_kind = 'wake'")
            .map { (token: $0[0] ?? "", count: Int64($0[1] ?? "") ?? -1) }
        let expected = counted.filter { $0.count > 0 }
            .sorted { ($1.count, $0.token) < ($0.count, $1.token) }.prefix(5)
            .map { StatsReport.TopCount(token: String($0.token.prefix(8)) + "…", count: $0.count) }
        #expect(Set(expected.map(\.count)) == [3, 2, 1], "\(counted)")

        #expect(try store.statsReport(now: 1_900_000_000_000).topWakeups == expected)
        let fresh = try TestDatabase(engine, label: "top-wakeups-fresh")
        try fresh.reading { _ in }  // migrated
        #expect(try Self.targetIndexes(of: store) == Self.targetIndexes(of: fresh))
        #expect(!(try Self.targetIndexes(of: store)).contains { $0.contains("push_targets_by_wakeups") })
    }

    /// The indexes of `push_targets`, each as its engine writes it out, by name.
    static func targetIndexes(of store: TestDatabase) throws -> [String] {
        let query =
            store.kind == .postgres
            ? "SELECT indexdef FROM pg_indexes WHERE tablename = 'push_targets' ORDER BY indexname"
            : "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'push_targets' ORDER BY name"
        return try store.rows(query).map { $0.first.flatMap { $0 } ?? "" }
    }

    /// Loads the fixture's dump of this run's engine into `store`'s empty database.
    func restore(_ fixture: String, into store: TestDatabase) throws {
        let dump = try Documents.text("\(fixture)/\(store.kind).sql")
        switch store.kind {
        case .sqlite, .memory: try store.execute(dump)
        case .postgres:
            let database = try #require(store.postgres)
            try database.cluster.psqlScript(dump, database: database.name)
        }
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// What `old` holds that `new` does not hold alike: every key of an object (`new` may add
    /// keys: figures this release added), every element of an array (the same count), every value.
    static func differences(old: Any, new: Any?, at path: String) -> [String] {
        switch old {
        case let object as [String: Any]:
            guard let newObject = new as? [String: Any] else { return ["\(path): was an object, is \(String(describing: new))"] }
            return object.keys.sorted().flatMap { differences(old: object[$0]!, new: newObject[$0], at: "\(path).\($0)") }
        case let array as [Any]:
            guard let newArray = new as? [Any], newArray.count == array.count else {
                return ["\(path): was \(array), is \(String(describing: new))"]
            }
            return zip(array, newArray).enumerated().flatMap { differences(old: $1.0, new: $1.1, at: "\(path)[\($0)]") }
        default:
            guard let new, (old as? NSObject)?.isEqual(new) == true else {
                return ["\(path): was \(old), is \(String(describing: new))"]
            }
            return []
        }
    }

    /// Prometheus text as series (name and labels, a `kind="wake"` label left out: the wake
    /// pushes' series that had none) and their values.
    static func series(_ text: String) -> [String: String] {
        var series: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " ") else { continue }
            var name = String(line[..<space])
            for label in [",kind=\"wake\"", "kind=\"wake\",", "{kind=\"wake\"}", "kind=\"wake\""] {
                name = name.replacingOccurrences(of: label, with: "")
            }
            series[name] = String(line[line.index(after: space)...])
        }
        return series
    }
}
