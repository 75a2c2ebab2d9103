import Foundation
import LiveActivityDomain
import TestSupport
import Testing

/// A host lost in the middle of a sweep (SPEC 5, "Several hosts", SPEC 8): killed between its
/// claim and its writes, frozen past its lease, cut off from the database. Another host's sweep
/// takes its rows once the lease ends; only what the lost host had sent may be pushed twice;
/// nothing is lost. Judged by what the APNs stand-in received, on which connection.
@Suite("A host fails mid-sweep")
struct HostFailureTests {
    /// 300 due rows and an APNs that lets 20 pushes a second through, so a sweep is caught
    /// with its rows claimed and its outcomes not yet written (a batch of 1,000 is written at
    /// the end); 5 pushes in flight at most, so a lost host had sent only a few.
    static let rows = 300
    static let pace = 20
    /// A lease of 40 s over a budget of 30 s (budget and drain inside it).
    static let slowHost = [
        "LIVEACTIVITY_SWEEP_BUDGET": "30", "LIVEACTIVITY_LEASE_SECONDS": "40", "LIVEACTIVITY_APNS_CONCURRENCY": "5",
    ]

    func slowHosts() throws -> SweepingHosts {
        let hosts = try SweepingHosts(standIn: StandInStack(pace: Self.pace), shared: Self.slowHost)
        try hosts.register(Self.rows)
        return hosts
    }

    /// Starts `host`'s sweep and waits until the stand-in has its first pushes.
    func startCaughtMidSweep(_ hosts: SweepingHosts, _ host: String) throws -> ChildProcess {
        let sweep = try hosts.start(host)
        #expect(waitUntil(timeout: 60) { ((try? hosts.standIn.state().received().count) ?? 0) >= 5 }, "\(sweep.output)")
        return sweep
    }

    /// After everything: every row pushed and written once, and a row pushed twice only if the
    /// lost host had sent it (on one of `lostConnections`).
    func expectNothingLost(_ hosts: SweepingHosts, lostConnections: Set<String>) throws {
        let counts = try hosts.receivedCounts()
        #expect(counts.count == Self.rows, "every row pushed")
        let twice = Set(counts.filter { $0.value > 1 }.keys)
        let sentByTheLostHost = try hosts.tokens(pushedOn: lostConnections)
        #expect(twice.isSubset(of: sentByTheLostHost), "pushed twice only what the lost host had sent")
        #expect(counts.values.allSatisfy { $0 <= 2 })
        #expect(try hosts.database.count() == Self.rows, "no registration lost")
        #expect(try hosts.database.scalar("SELECT count(*) FROM push_targets WHERE push_count <> 1") == 0)
    }

    @Test func aHostKilledBetweenClaimAndWritesDelaysItsRowsByTheLeaseOnly() throws {
        let hosts = try slowHosts()
        let lost = try startCaughtMidSweep(hosts, "host-a")
        lost.signal(SIGKILL)
        #expect(lost.waitForExit(timeout: 30) == .signalled(SIGKILL))
        #expect(try hosts.pushedRows() == 0, "killed before it wrote an outcome")
        let lostConnections = try hosts.connectionsSoFar()

        // Its rows are its lease's: another host passes them over while the lease lasts...
        let during = try hosts.sweep("host-b")
        #expect(during.status == 0 && SweepingHosts.sent(during.stdout) == 0, "\(during.stdout)\(during.stderr)")
        // ...and takes them at its first sweep after the lease ended (by the database's clock).
        #expect(hosts.waitForLeasesToEnd())
        let after = try hosts.sweep("host-b")
        #expect(after.status == 0 && SweepingHosts.sent(after.stdout) == Self.rows, "\(after.stdout)\(after.stderr)")
        try expectNothingLost(hosts, lostConnections: lostConnections)
    }

    @Test func aKilledHostsNextSweepTakesItsRowsAtOnce() throws {
        // SPEC 5: its own lock says no earlier sweep of that host still runs.
        let hosts = try slowHosts()
        let lost = try startCaughtMidSweep(hosts, "host-a")
        lost.signal(SIGKILL)
        #expect(lost.waitForExit(timeout: 30) == .signalled(SIGKILL))
        let lostConnections = try hosts.connectionsSoFar()
        #expect(try hosts.leasedRows() == Int64(Self.rows), "its lease still stands for every other host")
        let next = try hosts.sweep("host-a")
        #expect(next.status == 0 && SweepingHosts.sent(next.stdout) == Self.rows, "\(next.stdout)\(next.stderr)")
        try expectNothingLost(hosts, lostConnections: lostConnections)
    }

    @Test func aHostFrozenPastItsLeaseChangesNothingAnotherHostWrote() throws {
        let hosts = try SweepingHosts(
            standIn: StandInStack(pace: Self.pace),
            shared: ["LIVEACTIVITY_SWEEP_BUDGET": "10", "LIVEACTIVITY_LEASE_SECONDS": "20", "LIVEACTIVITY_APNS_CONCURRENCY": "5"])
        try hosts.register(Self.rows)
        let frozen = try startCaughtMidSweep(hosts, "host-a")
        frozen.signal(SIGSTOP)
        #expect(waitUntil(timeout: 30) { processState(of: frozen.pid) == "T" })
        #expect(try hosts.pushedRows() == 0, "frozen before it wrote an outcome")
        let frozenConnections = try hosts.connectionsSoFar()
        #expect(hosts.waitForLeasesToEnd(), "the frozen host's lease ends by the database's clock")

        let other = try hosts.sweep("host-b", ["LIVEACTIVITY_SWEEP_BUDGET": "50", "LIVEACTIVITY_LEASE_SECONDS": "120"])
        #expect(other.status == 0 && SweepingHosts.sent(other.stdout) == Self.rows, "\(other.stdout)\(other.stderr)")
        let written = try hosts.writtenBy("host-b")
        #expect(written.count == Self.rows)

        // Resumed long past its budget: it sends nothing new, and its late writes find every row
        // under another lease, so they change nothing.
        frozen.signal(SIGCONT)
        let end = frozen.waitForExit(timeout: 120)
        #expect(end == .exited(0), "\(frozen.output)")
        #expect(isCrashFree(frozen.output))
        #expect(try hosts.writtenBy("host-b") == written, "host-b's writes stand")
        try expectNothingLost(hosts, lostConnections: frozenConnections)
    }

    @Test func aHostCutOffFromTheDatabaseMidSweepLosesNoRow() throws {
        let hosts = try slowHosts()
        let cut = try startCaughtMidSweep(hosts, "host-a")
        // The server ends every session of host-a's sweep, as a lost network ends them.
        #expect(
            try hosts.database.postgres!.cluster.terminateBackends(
                database: hosts.database.postgres!.name, applicationName: "liveactivity-sweep") >= 1)
        _ = try? hosts.database.postgres!.cluster.terminateBackends(
            database: hosts.database.postgres!.name, applicationName: "liveactivity-sweep outcomes")
        let end = cut.waitForExit(timeout: 120)
        #expect(end != nil && end != .exited(0), "a sweep that lost the database says so: \(cut.output)")
        #expect(isCrashFree(cut.output), "one line, no crash: \(cut.output)")
        let lines = cut.output.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("(LIVEACTIVITY_DB): unreachable"), "\(cut.output)")
        let cutConnections = try hosts.connectionsSoFar()

        #expect(hosts.waitForLeasesToEnd())
        let other = try hosts.sweep("host-b", ["LIVEACTIVITY_SWEEP_BUDGET": "50", "LIVEACTIVITY_LEASE_SECONDS": "120"])
        #expect(other.status == 0, "\(other.stdout)\(other.stderr)")
        // Whatever host-a managed to write before the cut stands; the rest host-b pushed.
        #expect(try hosts.receivedCounts().count == Self.rows)
        #expect(try hosts.database.scalar("SELECT count(*) FROM push_targets WHERE push_count = 0") == 0)
        #expect(try hosts.database.count() == Self.rows)
        let twice = Set(try hosts.receivedCounts().filter { $0.value > 1 }.keys)
        #expect(twice.isSubset(of: try hosts.tokens(pushedOn: cutConnections)))
        // The host itself sweeps again at its next minute: its name's lock went with its session.
        #expect(try hosts.sweep("host-a").status == 0)
    }
}
