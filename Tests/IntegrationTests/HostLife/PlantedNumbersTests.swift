import Foundation
import LiveActivityDomain
import TestSupport
import Testing

/// Numbers read back are input too (SPEC 7, issue 30 point 6): any process of the web user may
/// write the SQLite file (and a responder's role writes counters on PostgreSQL), and a value of
/// 2^63 - 1 in a counter, a figure row or a provider token's issue time trapped in arithmetic:
/// every sweep (on every host), the responder's status page and metrics. Each is planted here and
/// every program must answer, never crash.
@Suite("Planted numbers")
struct PlantedNumbersTests {
    static let huge = "9223372036854775807"

    /// Rows of the counters and figures at the edge of `bigint`, in SQL both engines take.
    static func plant(into database: TestDatabase) throws {
        _ = try database.count()  // migrated
        let now = Clock().now()
        try database.execute("DELETE FROM target_groups WHERE activity_type = 'charging' AND environment = 'production'")
        try database.execute(
            "INSERT INTO target_groups (activity_type, environment, push_kind, n, unproven) VALUES ('charging', 'production', 'wake', \(huge), 0)"
        )
        try database.execute(
            "INSERT INTO target_groups (activity_type, environment, push_kind, n, unproven) VALUES ('debug', 'sandbox', 'wake', \(huge), \(huge))"
        )
        try database.execute(
            """
            INSERT INTO sweep_runs (started_at, duration_ms, expired, outcome, host)
            VALUES (\(now - 60_000), \(huge), 0, 'ok', 'planted')
            """)
        try database.execute(
            """
            INSERT INTO sweep_run_kinds (started_at, run_id, push_kind, active, sent, skipped, failed, removed, held)
            SELECT max(started_at), max(id), 'wake', 1, \(huge), 0, \(huge), 0, 0 FROM sweep_runs
            """)
        try database.execute("INSERT INTO ack_delay_totals (bucket, count) VALUES (0, \(huge))")
        try database.execute("INSERT INTO ack_delay_totals (bucket, count) VALUES (1, \(huge))")
    }

    @Test(arguments: TestEngine.real)
    func theResponderAnswersItsFiguresWithPlantedCounters(engine: TestEngine) throws {
        let stack = try LiveStack(with(engine, [:]), label: "planted")
        try Self.plant(into: stack.database)
        let pid = stack.responder.pid
        for path in ["/wakeup/status", "/wakeup/metrics", "/wakeup/health"] {
            let answer = try stack.request("GET", path)
            #expect([200, 503].contains(answer.status), "\(path) answered \(answer.status)")
            #expect(stack.responder.isRunning && stack.responder.pid == pid, "\(path) cost the responder: \(stack.responderLog)")
        }
        // The cap's counts saturate: a new token is refused, nothing crashes.
        let refused = try stack.request("POST", "/wakeup", body: registerBody(testToken(9001)))
        #expect([200, 503].contains(refused.status), "\(refused.status)")
        #expect(stack.responder.isRunning && stack.responder.pid == pid)
    }

    @Test(arguments: TestEngine.real)
    func theSweepAndItsCommandsRunWithPlantedCounters(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register(1...3)
        try Self.plant(into: fixture.database)
        let sweep = try fixture.sweep()
        #expect(!sweep.stderr.contains("Fatal error") && sweep.status != 132, "\(sweep.stderr)")
        #expect(try fixture.received().count == 3, "the sweep pushed: \(sweep.stdout) \(sweep.stderr)")
        for arguments in [["stats"], ["stats", "--json"], ["stats", "--html"]] {
            let run = try fixture.sweep(arguments: arguments)
            #expect(run.status == 0 || run.status == 3, "\(arguments) exited \(run.status): \(run.stderr)")
        }
    }

    /// A cached provider token issued at the edge of time: renewed, never a trap.
    @Test(arguments: TestEngine.real)
    func aPlantedIssueTimeIsRenewed(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register(1...2)
        #expect(try fixture.sweep().status == 0)
        switch fixture.database.kind {
        case .sqlite:
            let path = fixture.database.sweepFolder + "/provider-token"
            let fields = try String(contentsOfFile: path, encoding: .utf8).split(separator: " ")
            try "v1 \(fields[1]) \(Self.huge) \(fields[3])".write(toFile: path, atomically: false, encoding: .utf8)
        case .postgres, .memory:
            try fixture.database.execute("UPDATE provider_tokens SET issued_at = \(Self.huge)")
        }
        try fixture.register(3...4)
        // A stand-in that has not seen the first token: APNs refuses a second one within 20
        // minutes (429), unless both were signed in the same second; the renewal is the point here.
        let fresh = try StandInStack(key: fixture.standIn.key)
        let run = try SweepFixtureOnSameDatabase(fixture: fixture, standIn: fresh).sweep([:])
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        #expect(try fresh.state().received(token: sampleToken(3)).count == 1)
        #expect(try fixture.cachedToken().map { $0.issuedAt < Clock().now() + 60_000 } == true, "the planted token was renewed")
    }

    /// The sums behind the page and the metrics, at the edge: held at the bound.
    @Test func sumsSaturate() {
        #expect(Int64.max.addingSaturated(1) == .max && Int64.min.addingSaturated(-1) == .min)
        #expect(Int64.max.multipliedSaturated(by: 10) == .max && Int64.min.multipliedSaturated(by: 2) == .min)
        #expect(Int64.min.subtractingSaturated(1) == .min && [Int64.max, 1, 1].saturatedSum() == .max)
        #expect(ProviderToken(jwt: "x", issuedAt: .max).needsRenewal(atMilliseconds: Clock().now()))
        #expect(ProviderToken(jwt: "x", issuedAt: .min).needsRenewal(atMilliseconds: Clock().now()))
    }
}
