import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityFigures
@testable import LiveActivityStore

@Suite struct StatsTests {
    let folder = TemporaryDirectory("stats")
    let now: Int64 = 1_800_000_000_000
    let minute: Int64 = 60_000

    /// `populateStatsFigures` on `engine` (a real one: the fixture plants numbers with SQL).
    func populatedStore(on engine: TestEngine) throws -> TestDatabase {
        try populateStatsFigures(TestDatabase(engine, label: "stats"), now: now)
    }

    @Test(arguments: TestEngine.real)
    func theReportCountsByTypeEnvironmentAndAge(engine: TestEngine) throws {
        let store = try populatedStore(on: engine)
        let report = try store.statsReport(now: now)
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
        #expect(report.backingOff.map { "\($0.environment)=\($0.count)" } == ["production=0", "sandbox=1"])
        #expect(
            report.recentFaults == [
                .init(
                    environment: .sandbox, kind: .configuration, reason: "BadEnvironmentKeyInToken", runs: 1, pushes: 40,
                    lastAt: now - 10 * minute)
            ])
    }

    /// SQLite counts each bound from whichever side looks smaller (the older one against the
    /// counters' total): every bound, on either side of every registration, counts as stepping
    /// through the newer side would.
    @Test(arguments: TestEngine.real)
    func registrationsNewerThanABoundAreCountedFromEitherSide(engine: TestEngine) throws {
        let store = try populatedStore(on: engine)
        let ages: [Int64] = [1, 10, 45, 180]
        let registeredAt = ages.map { now - $0 * minute }
        let steps: [Int64] = (0...402).map { now - 200 * minute + Int64($0) * minute / 2 }
        let bounds: [Int64] = steps + [Int64.min, Int64.max]
        let counts = try store.reading { try $0.registeredAfter(bounds) }
        #expect(counts == bounds.map { bound in Int64(registeredAt.filter { $0 > bound }.count) })
    }

    @Test(arguments: TestEngine.real)
    func faultsAndBackOffShowInTextAndJSON(engine: TestEngine) throws {
        let report = try populatedStore(on: engine).statsReport(now: now)
        #expect(report.text.contains("Waiting after failures (back-off): production 0, sandbox 1"))
        #expect(report.text.contains("  sandbox: configuration BadEnvironmentKeyInToken in 1 runs (40 pushes), last 10 min ago"))
        #expect(report.json.contains(#""backingOff":{"production":0,"sandbox":1}"#))
        #expect(
            report.json.contains(
                #""faults24h":[{"environment":"sandbox","pushKind":"","kind":"configuration","reason":"BadEnvironmentKeyInToken","runs":1,"pushes":40,"lastAt":1799999400000}]"#
            ))
        let quiet = try populatedStore(on: engine).statsReport(now: now + 2 * 86_400_000)
        #expect(quiet.text.contains("Faults over 24 h: none") && quiet.json.contains(#""faults24h":[]"#))
    }

    @Test(arguments: TestEngine.real)
    func theTextAndJSONShowTheFiguresButNoFullToken(engine: TestEngine) throws {
        let report = try populatedStore(on: engine).statsReport(now: now)
        #expect(report.text.contains("Active registrations: 4"))
        #expect(report.text.contains("debug / sandbox: 1"))
        #expect(report.text.contains("error rate 10.0%"))
        #expect(report.json.contains("\"active\":4"))
        #expect(
            report.json.contains(
                "\"sweeps24h\":{\"runs\":1,\"sent\":90,\"failed\":10,\"removed\":3,\"expired\":0,\"errorRate\":0.1000,\"others\":{}}"
            ))
        for seed in 1...4 {
            #expect(!report.text.contains(sampleToken(seed)))
            #expect(!report.json.contains(sampleToken(seed)))
        }
    }

    @Test(arguments: TestEngine.every)
    func anEmptyDatabaseReportsZeros(engine: TestEngine) throws {
        let store = try TestDatabase(engine, label: "empty")
        let report = try store.statsReport(now: now)
        #expect(report.active == 0 && report.oldestRegisteredAt == nil && report.lastRunAt == nil)
        #expect(report.text.contains("Last sweep: none recorded"))
        #expect(report.json.contains("\"lastRunAt\":null"))
    }
}
