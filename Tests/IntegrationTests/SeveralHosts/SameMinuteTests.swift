import Foundation
import LiveActivityDomain
import LiveActivityFigures
import LiveActivitySweep
import PostgresClient
import TestSupport
import Testing

/// Several hosts sweeping one database the same minute (SPEC 5, "Several hosts"): each due row
/// pushed by exactly one of them, one provider token between them, one name per host. Judged by
/// what the APNs stand-in received.
@Suite("Several hosts sweep the same minute")
struct SameMinuteTests {
    /// Every host of `names` starts its sweep at once; each ends 0.
    func sweepTogether(_ hosts: SweepingHosts, _ names: [String]) throws -> [String: String] {
        let processes = try names.map { try hosts.start($0) }
        var outputs: [String: String] = [:]
        for (name, process) in zip(names, processes) {
            #expect(process.waitForExit(timeout: 120) == .exited(0), "\(name): \(process.output)")
            outputs[name] = process.output
        }
        return outputs
    }

    @Test(arguments: [2, 3])
    func eachDueRowIsPushedOnceBetweenTheHosts(hostCount: Int) throws {
        // Each host keeps at most 100 pushes in flight: the stand-in's 4 workers queue what 3 hosts
        // send (nginx answers 502 itself past its backlog of 1,024, a failure that backs off).
        let hosts = try SweepingHosts(shared: ["LIVEACTIVITY_APNS_CONCURRENCY": "100"])
        try hosts.register(3000)
        let names = (1...hostCount).map { "host-\($0)" }
        let outputs = try sweepTogether(hosts, names)

        let counts = try hosts.receivedCounts()
        #expect(counts.count == 3000, "every due row pushed")
        #expect(counts.values.allSatisfy { $0 == 1 }, "none twice: \(counts.values.filter { $0 > 1 }.count) were")
        let sent = names.map { SweepingHosts.sent(outputs[$0] ?? "") }
        #expect(sent.reduce(0, +) == 3000, "the hosts' summary lines add up: \(sent)")
        #expect(names.allSatisfy { SweepFixture.field("failed", in: outputs[$0] ?? "") == "0" }, "\(outputs)")
        #expect(try hosts.pushedRows() == 3000, "every outcome written")
        #expect(try hosts.database.scalar("SELECT count(*) FROM push_targets WHERE push_count <> 1") == 0)
        #expect(try hosts.leasedRows() == 0, "every lease ended with its write")
        let recorded = try hosts.database.rows("SELECT DISTINCT host FROM sweep_runs ORDER BY host").map { $0[0] ?? "" }
        #expect(recorded == names, "each host's run is in the shared history")
        // Every host's last sweep in stats --json and /wakeup/metrics' figures, none alarmed.
        let stats = try runCommand(
            product("liveactivity-sweep"), ["stats", "--json"], environment: hosts.environment("host-1"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        #expect((json["hosts"] as? [[String: Any]])?.compactMap { $0["host"] as? String } == names, "\(stats.stdout)")
        #expect(json["alarms"] as? [String] == [])
        let metrics = PrometheusMetrics.render(try hosts.database.metricsSnapshot())
        for name in names {
            #expect(metrics.contains("liveactivity_host_last_sweep_timestamp_seconds{host=\"\(name)\"} "), "\(metrics)")
        }
        // The next minute, nothing is due for anyone.
        for name in names { #expect(SweepingHosts.sent(try hosts.sweep(name).stdout) == 0) }
        #expect(try hosts.standIn.state().received().count == 3000)
    }

    @Test func threeHostsExpiringAndPruningTheSameMinuteDeleteEachRowOnce() throws {
        let hosts = try SweepingHosts(shared: ["LIVEACTIVITY_APNS_CONCURRENCY": "100"])
        // 500 registrations past their 8 hours, 500 due, and a run history older than 30 days.
        try hosts.fixture.register(1...500, ago: 9 * 3_600_000)
        try hosts.fixture.register(501...1000)
        for day in [31, 32, 40] {
            var old = SweepSummary()
            old.startedAt = Clock().now() - Int64(day) * 86_400_000
            try hosts.database.record(old, host: "retired")
        }
        let names = ["host-1", "host-2", "host-3"]
        let outputs = try sweepTogether(hosts, names)
        let expired = names.map { Int(SweepFixture.field("expired", in: outputs[$0] ?? "") ?? "") ?? -1 }
        #expect(expired.allSatisfy { $0 >= 0 } && expired.reduce(0, +) == 500, "each expired row deleted once: \(expired)")
        #expect(names.map { SweepingHosts.sent(outputs[$0] ?? "") }.reduce(0, +) == 500)
        #expect(try hosts.database.count() == 500)
        let counts = try hosts.receivedCounts()
        #expect(counts.count == 500 && counts.values.allSatisfy { $0 == 1 } && counts[sampleToken(1)] == nil)
        #expect(try hosts.database.scalar("SELECT count(*) FROM sweep_runs WHERE host = 'retired'") == 0, "pruned")
        #expect(try hosts.database.scalar("SELECT count(*) FROM sweep_runs") == 3, "one run recorded per host")
    }

    @Test func hostsRenewingTogetherSignOneProviderTokenBetweenThem() throws {
        let hosts = try SweepingHosts()
        try hosts.register(600)
        // The token every host shares is 55 minutes old: due for renewal (SPEC 5, after about 50).
        let old = try hosts.standIn.providerToken(issuedSecondsAgo: 55 * 60)
        let credentials = try hosts.fixture.credentials()
        _ = try hosts.database.engine.providerTokens(sweepFolder: hosts.database.sweepFolder).renew(
            cacheKey: credentials.tokenCacheKey
        ) { _ in old }
        _ = try sweepTogether(hosts, ["host-1", "host-2", "host-3"])

        let received = try hosts.standIn.state().received()
        #expect(received.count == 600 && received.allSatisfy { $0.status == 200 }, "no 429 TooManyProviderTokenUpdates")
        let tokens = Set(received.compactMap(\.authorization))
        #expect(tokens.count == 1, "one new token for all three hosts, renewed by one of them")
        #expect(!tokens.contains("bearer \(old.jwt)"), "the old one was renewed before any push")
        #expect(try hosts.fixture.cachedToken()?.token == tokens.first.map { String($0.dropFirst("bearer ".count)) })
    }

    @Test func aSecondHostUnderTheSameNameIsRefusedWithOneLine() throws {
        // A slow APNs keeps the first sweep running while the second starts.
        let hosts = try SweepingHosts(standIn: StandInStack(pace: 20))
        try hosts.register(400)
        let first = try hosts.start("web1")
        #expect(waitUntil(timeout: 60) { ((try? hosts.standIn.state().received().count) ?? 0) >= 5 })
        // Another machine named alike: its own folder (its own lock), the same database.
        let second = try hosts.sweep("web1", ["LIVEACTIVITY_SWEEP_DIR": hosts.fixture.folder.file("other-machine")])
        #expect(second.status == 2, "\(second.stdout) \(second.stderr)")
        let lines = second.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("LIVEACTIVITY_HOST_NAME=web1 is in use"), "\(second.stderr)")
        #expect(isCrashFree(second.stderr) && SweepingHosts.sent(second.stdout) == -1, "it pushed nothing")
        first.signal(SIGTERM)
        #expect(first.waitForExit(timeout: 120) == .exited(0), "\(first.output)")
        // The name is free once its sweep has ended.
        #expect(try hosts.sweep("web1", ["LIVEACTIVITY_SWEEP_DIR": hosts.fixture.folder.file("other-machine")]).status == 0)
        let counts = try hosts.receivedCounts()
        #expect(counts.count == 400 && counts.values.allSatisfy { $0 == 1 })
    }

    /// Issue 30 point 7: advisory locks need no grant, so a session of any role that may
    /// connect could hold a host's name and have its sweep refused as "name in use". The holder's
    /// role tells them apart: another role is a fault that says so, never a second host.
    @Test func aNameLockHeldByAnotherRoleIsAFaultThatNamesIt() throws {
        let hosts = try SweepingHosts()
        try hosts.register(3)
        let postgres = try #require(hosts.database.postgres)
        let stranger = postgres.cluster.uniqueName("stranger")
        try postgres.cluster.psql("CREATE ROLE \(stranger) LOGIN")
        defer { _ = try? postgres.cluster.psql("DROP ROLE IF EXISTS \(stranger)") }
        let session = try PostgresConnection(conninfo: postgres.uri(user: stranger))
        defer { session.close() }
        _ = try session.query("SELECT pg_advisory_lock(hashtextextended('liveactivity sweep host ' || 'web1', 0))")
        let refused = try hosts.sweep("web1")
        #expect(refused.status == 1, "\(refused.stdout) \(refused.stderr)")
        let lines = refused.stderr.split(separator: "\n")
        #expect(
            lines.count == 1 && lines[0].contains("held by a session of role \"\(stranger)\", not a sweep"), "\(refused.stderr)")
        #expect(try hosts.standIn.state().received().isEmpty, "it pushed nothing")
        _ = try session.query("SELECT pg_advisory_unlock_all()")
        #expect(try hosts.sweep("web1").status == 0)
        #expect(try hosts.standIn.state().received().count == 3)
    }

    @Test func aLeaseNoLongerThanTheBudgetIsRefusedAtStart() throws {
        let hosts = try SweepingHosts()
        try hosts.register(5)
        let result = try hosts.sweep("web1", ["LIVEACTIVITY_LEASE_SECONDS": "30", "LIVEACTIVITY_SWEEP_BUDGET": "50"])
        #expect(result.status == 2)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("LIVEACTIVITY_LEASE_SECONDS (30) must be longer"), "\(result.stderr)")
        #expect(try hosts.standIn.state().received().isEmpty && hosts.database.count() == 5, "nothing pushed, nothing lost")
    }

    @Test func aDatabaseRefusingTheClaimCostsOneLineAndNoRow() throws {
        let hosts = try SweepingHosts()
        try hosts.register(50)
        try hosts.database.execute(
            """
            CREATE FUNCTION refuse_claims() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN IF NEW.lease_id IS DISTINCT FROM OLD.lease_id THEN RAISE EXCEPTION 'claims refused'; END IF; RETURN NEW; END $$;
            CREATE TRIGGER refuse_claims BEFORE UPDATE ON push_targets FOR EACH ROW EXECUTE FUNCTION refuse_claims();
            """)
        let refused = try hosts.sweep("web1")
        #expect(refused.status != 0 && isCrashFree(refused.stderr), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1, "one line: \(refused.stderr)")
        #expect(try hosts.standIn.state().received().isEmpty, "nothing pushed without a claim")
        #expect(try hosts.database.count() == 50 && hosts.leasedRows() == 0, "nothing lost, nothing left leased")
        try hosts.database.execute("DROP TRIGGER refuse_claims ON push_targets")
        #expect(SweepingHosts.sent(try hosts.sweep("web2").stdout) == 50)
        #expect(try hosts.receivedCounts().values.allSatisfy { $0 == 1 })
    }
}

extension SweepFixture {
    /// The sweep's APNs credentials as its settings give them.
    func credentials() throws -> SweepCredentials { try SweepCredentials(settings: Settings(values: sweepEnvironment())) }
}
