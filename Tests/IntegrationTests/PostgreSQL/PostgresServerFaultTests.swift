import APNsStandIn
import Foundation
import TestSupport
import Testing

/// The faults only a database server has (issue 23, SPEC 4): restarted or crashed under
/// registration load, gone when a sweep starts, gone in the middle of one. Each test runs a
/// server of its own, which it stops; the programs are never restarted.
@Suite(
    "PostgreSQL server faults")
struct PostgresServerFaultTests {
    enum Loss: String, CaseIterable, Sendable {
        /// A fast shutdown (sessions ended, a checkpoint), then a start: an operator's restart.
        case restart
        /// Every server process SIGKILLed, then a start with crash recovery: a power cut.
        case crash
    }

    /// A server of the test's own, started, with a database on it.
    func ownServer(_ label: String) throws -> (PostgresCluster, TestDatabase) {
        let cluster = try PostgresCluster(label)
        try cluster.start()
        let database = try cluster.createDatabase(label)
        return (cluster, try TestDatabase(postgresURI: database.uri(), database: database))
    }

    func lose(_ cluster: PostgresCluster, _ loss: Loss) throws {
        switch loss {
        case .restart: cluster.stop()
        case .crash: cluster.kill()
        }
    }

    @Test(arguments: Loss.allCases)
    func aServerLostUnderRegistrationLoadCostsNoCommittedRegistration(_ loss: Loss) throws {
        let (cluster, database) = try ownServer("load-\(loss)")
        var options = LiveStack.Options(engine: .postgres)
        options.environment = ["LIVEACTIVITY_DB": database.setting]
        let live = try LiveStack(options, label: "pgload")
        let load = RegistrationLoad(port: live.port)
        for round in 0..<3 {
            let answered = load.answers.count
            #expect(waitUntil(timeout: 60) { load.answers.count >= answered + 20 }, "round \(round): no load got through")
            try lose(cluster, loss)
            // While the server is away: refusals, not hangs and not 200s.
            let refused = load.answers.count
            #expect(waitUntil(timeout: 60) { load.answers.count >= refused + 5 }, "round \(round): requests hung")
            try cluster.start()
            // Served again without a restart of the responder (bounded: a failed open is trusted for a second).
            #expect(
                waitUntil(timeout: 60) {
                    (try? live.request("POST", "/wakeup", body: registerBody(testToken(2340 + round))))?.status == 200
                },
                "round \(round): the responder did not serve again: \(live.responderLog.suffix(600))")
        }
        load.stop()
        let answers = load.answers
        let statuses = Dictionary(grouping: answers, by: \.status).mapValues(\.count)
        #expect(load.failures.isEmpty, "\(load.failures.prefix(5))")
        #expect(answers.allSatisfy { $0.status == 200 || $0.status == 503 }, "\(statuses)")
        #expect(statuses[503, default: 0] > 0, "the server's absence was never seen: the test tested nothing")
        let stored = Set(try database.rows("SELECT push_token FROM push_targets").map { $0[0] ?? "" })
        let lost = answers.filter { $0.status == 200 && !stored.contains($0.token) }
        #expect(lost.isEmpty, "\(lost.count) registrations answered 200 are not stored (\(statuses))")
        #expect(live.responder.isRunning, "the responder ended: \(live.responderLog.suffix(600))")
        let faultLines = live.responderLog.split(separator: "\n").filter { $0.contains("LIVEACTIVITY_DB") }
        #expect(!faultLines.isEmpty && faultLines.count <= 12, "a line per fault, not per request: \(faultLines.count)")
        #expect(!live.responderLog.contains("Fatal error") && !live.responderLog.contains("backtrace"))
    }

    @Test func aSweepStartingWithoutItsServerExits2AndPushesNothing() throws {
        let (cluster, database) = try ownServer("sweep-start")
        let fixture = try SweepFixture(database: database)
        try fixture.register(1...20)
        cluster.stop()
        let run = try fixture.sweep()
        #expect(run.status == 2, "exit \(run.status): \(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains("unreachable"), "\(run.stderr)")
        #expect(run.stderr.contains("LIVEACTIVITY_DB"))
        #expect(try fixture.received().isEmpty)
        try cluster.start()
        let next = try fixture.sweep()
        #expect(next.status == 0 && next.stdout.contains("sent=20 "), "\(next.stdout) \(next.stderr)")
    }

    @Test func aServerLostInTheMiddleOfASweepLosesNoRegistration() throws {
        let (cluster, database) = try ownServer("sweep-middle")
        // Eight answers at a time, each held three seconds: the sweep takes 24 s, and the server goes
        // while pushes are in flight however slowly a loaded machine stops it.
        let fixture = try SweepFixture(database: database, standIn: StandInStack(workers: 8))
        let tokens = (1...64).map(sampleToken)
        try fixture.register(1...64)
        try fixture.standIn.state().script(tokens: tokens, status: 200, reason: nil, delayMilliseconds: 3000)
        let sweep = try fixture.startSweep(["LIVEACTIVITY_APNS_CONCURRENCY": "8"])
        #expect(waitUntil(timeout: 60) { ((try? fixture.received().count) ?? 0) >= 1 }, "no push went out")
        cluster.stop()
        let end = sweep.waitForExit(timeout: 120)
        #expect(
            end != nil && end != .exited(0),
            "the sweep could not write its outcomes: \(end.map { "\($0)" } ?? "running") \(sweep.output)")
        if case .signalled = end { Issue.record("the sweep crashed: \(sweep.output)") }
        let lines = sweep.output.split(separator: "\n").filter { $0.contains("LIVEACTIVITY_DB") }
        #expect(!lines.isEmpty && lines.count <= 3, "a line for the lost database: \(sweep.output)")
        let firstRound = try fixture.received().count

        try cluster.start()
        #expect(try fixture.count() == 64, "every registration is still there")
        // The host's next sweep takes its own leases as ended (SPEC 5): what it did not write is due.
        let next = try fixture.sweep()
        #expect(next.status == 0, "\(next.stdout) \(next.stderr)")
        let received = try fixture.received()
        let byToken = Dictionary(grouping: received, by: \.deviceToken).mapValues(\.count)
        #expect(Set(byToken.keys) == Set(tokens), "every registration was pushed")
        #expect(byToken.values.allSatisfy { $0 <= 2 }, "pushed at most once more: \(byToken.values.max() ?? 0)")
        #expect(received.count <= firstRound + 64)
        #expect(try fixture.database.scalar("SELECT count(*) FROM push_targets WHERE push_count = 0") == 0)
    }
}
