import Foundation
import LiveActivityDomain
import TestSupport
import Testing

/// The database lost under several hosts (SPEC 5, "Several hosts", SPEC 8): the server restarted
/// under registration load and in the middle of a sweep, and a primary lost with its streaming
/// standby promoted (PostgreSQL's own replication, found through a multi-host URI with
/// `target_session_attrs=read-write`). No registration answered 200 is lost; the responder answers
/// and the hosts sweep again without a restart of their own. Each test runs a cluster of its own.
@Suite("The database is lost under several hosts")
struct DatabaseLossTests {
    /// The registrations answered 200 that the database does not hold.
    func lost(_ load: RegistrationLoad, in database: TestDatabase) throws -> [String] {
        let stored = Set(try database.rows("SELECT push_token FROM push_targets").map { $0[0] ?? "" })
        return load.accepted.filter { !stored.contains($0) }
    }

    @Test func theDatabaseRestartedUnderRegistrationLoadAndMidSweepLosesNothing() throws {
        let cluster = try PostgresCluster("hosts-restart")
        try cluster.start()
        let created = try cluster.createDatabase("hosts")
        let uri = created.uri()
        let database = try TestDatabase(postgresURI: uri, database: created)
        let hosts = SweepingHosts(
            fixture: try SweepFixture(database: database, standIn: StandInStack(pace: 20)),
            shared: ["LIVEACTIVITY_SWEEP_BUDGET": "30", "LIVEACTIVITY_LEASE_SECONDS": "40", "LIVEACTIVITY_APNS_CONCURRENCY": "5"])
        try hosts.register(300)
        var options = LiveStack.Options(engine: .postgres)
        options.environment = ["LIVEACTIVITY_DB": uri]
        let stack = try LiveStack(options, label: "hosts-api")

        let load = RegistrationLoad.paced(port: stack.port)
        load.expectMoreAccepted(20, "registrations before the restart")
        let sweep = try hosts.start("host-a")
        #expect(waitUntil(timeout: 60) { ((try? hosts.standIn.state().received().count) ?? 0) >= 5 }, "\(sweep.output)")
        try cluster.restart()
        let end = sweep.waitForExit(timeout: 120)
        #expect(end != nil && isCrashFree(sweep.output), "\(sweep.output)")
        let sweepConnections = try hosts.connectionsSoFar()
        load.expectMoreAccepted(20, "registrations after the restart, by the same responder")
        load.stop()
        #expect(stack.responder.isRunning, "the responder was not restarted")
        #expect(load.failures.isEmpty, "\(load.failures.prefix(3))")
        #expect(load.answers.allSatisfy { [200, 503].contains($0.status) })
        #expect(try lost(load, in: database).isEmpty, "every registration answered 200 is stored")

        // The hosts sweep again with no restart of anything: host-a's rows once its lease ended.
        #expect(hosts.waitForLeasesToEnd())
        let after = try hosts.sweep("host-b", ["LIVEACTIVITY_SWEEP_BUDGET": "55", "LIVEACTIVITY_LEASE_SECONDS": "120"])
        #expect(after.status == 0, "\(after.stdout)\(after.stderr)")
        let counts = try hosts.receivedCounts()
        for seed in 1...300 { #expect(counts[sampleToken(seed)] != nil, "row \(seed) pushed") }
        let twice = Set(counts.filter { $0.value > 1 }.keys)
        #expect(twice.isSubset(of: try hosts.tokens(pushedOn: sweepConnections)), "twice only what host-a had sent")
        let unpushed = try database.rows("SELECT push_token FROM push_targets WHERE push_count = 0").map { $0[0] ?? "" }
        #expect(Set(unpushed).isDisjoint(with: (1...300).map(sampleToken)), "every row due before the restart written")
    }

    @Test func aPrimaryLostAndItsStandbyPromotedLosesNoRegistrationAnswered200() throws {
        let primary = try PostgresCluster("hosts-primary")
        try primary.start()
        let created = try primary.createDatabase("hosts")
        // Commits wait for the standby, so a 200 (committed) is on the standby when it is promoted.
        let standby = try primary.makeStandby(synchronous: true)
        let uri = PostgresCluster.readWriteURI(hosts: [primary, standby], database: created.name)
        let database = try TestDatabase(postgresURI: uri)
        let hosts = SweepingHosts(fixture: try SweepFixture(database: database))
        try hosts.register(100)
        #expect(SweepingHosts.sent(try hosts.sweep("host-a").stdout) == 100)

        var options = LiveStack.Options(engine: .postgres)
        options.environment = ["LIVEACTIVITY_DB": uri]
        let stack = try LiveStack(options, label: "hosts-api")
        let load = RegistrationLoad.paced(port: stack.port)
        load.expectMoreAccepted(20, "registrations before the primary is lost")
        primary.kill()
        try standby.promote()
        load.expectMoreAccepted(20, "registrations on the promoted standby, by the same responder")
        load.stop()
        #expect(stack.responder.isRunning, "the responder was not restarted")
        #expect(load.failures.isEmpty, "\(load.failures.prefix(3))")
        #expect(try lost(load, in: database).isEmpty, "every registration answered 200 is on the promoted standby")

        // Both hosts sweep the promoted server, found through the same URI.
        let registered = Set(load.accepted)
        let sweeps = try ["host-a", "host-b"].map { try hosts.start($0) }
        for sweep in sweeps { #expect(sweep.waitForExit(timeout: 120) == .exited(0), "\(sweep.output)") }
        let counts = try hosts.receivedCounts()
        #expect(registered.allSatisfy { counts[$0] == 1 }, "each new registration pushed once")
        // Beside the first 100, only tokens the load sent: a registration answered 503 while the
        // primary was lost may still have committed (its commit's acknowledgement lost with the
        // server), and is then pushed like any other; none is pushed twice.
        let answered = Set(load.answers.map(\.token))
        #expect(counts.keys.filter { !answered.contains($0) }.count == 100, "\(counts.count) tokens pushed")
        #expect(counts.values.allSatisfy { $0 == 1 })
        #expect(try database.scalar("SELECT count(*) FROM push_targets WHERE push_count = 0") == 0)
    }
}
