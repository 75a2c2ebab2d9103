import APNsStandIn
import Foundation
import LiveActivityDomain
import TestSupport

/// Several hosts sweeping one PostgreSQL database (SPEC 5, "Several hosts"), on one machine: a
/// host is a name (`LIVEACTIVITY_HOST_NAME`) and a sweep folder of its own (its lock), running the
/// same `liveactivity-sweep` as cron does against the same database and the same APNs stand-in.
/// Each test is judged by what the stand-in received.
final class SweepingHosts: @unchecked Sendable {
    let fixture: SweepFixture
    var database: TestDatabase { fixture.database }
    var standIn: StandInStack { fixture.standIn }
    /// Settings every host's sweep gets on top of the stand-in's and the database's.
    var shared: [String: String]
    private let runs = LockedBox(0)

    init(fixture: SweepFixture, shared: [String: String] = [:]) {
        self.fixture = fixture
        self.shared = shared
    }

    convenience init(standIn: StandInStack? = nil, shared: [String: String] = [:]) throws {
        self.init(fixture: try SweepFixture(.postgres, standIn: standIn), shared: shared)
    }

    /// `host`'s environment: its name and its own sweep folder, `extra` on top.
    func environment(_ host: String, _ extra: [String: String] = [:]) -> [String: String] {
        var environment = fixture.sweepEnvironment()
        environment.merge(shared) { _, new in new }
        environment["LIVEACTIVITY_HOST_NAME"] = host
        environment["LIVEACTIVITY_SWEEP_DIR"] = fixture.folder.file("sweep-\(host)")
        environment.merge(extra) { _, new in new }
        return environment
    }

    /// One sweep of `host`, run to its end.
    func sweep(_ host: String, _ extra: [String: String] = [:], timeout: TimeInterval = 120) throws -> CommandResult {
        try runCommand(product("liveactivity-sweep"), [], environment: environment(host, extra), timeout: timeout)
    }

    /// A sweep of `host` started as a process of its own (to run beside others, or to kill,
    /// freeze or cut off); its output goes to a log of its own.
    func start(_ host: String, _ extra: [String: String] = [:]) throws -> ChildProcess {
        let number = runs.update { count in
            count += 1
            return count
        }
        return try ChildProcess(
            product("liveactivity-sweep"), environment: environment(host, extra),
            outputPath: fixture.folder.file("sweep-\(host)-\(number).log"))
    }

    /// Registers `count` devices (seeds 1...count) as the API would.
    func register(_ count: Int, ago: Int64 = 0) throws { try fixture.register(1...count, ago: ago) }

    /// Every push the stand-in received, by token: how many times each.
    func receivedCounts() throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for push in try standIn.state().received() { counts[push.deviceToken, default: 0] += 1 }
        return counts
    }

    /// The stand-in's client connections (nginx's numbers) seen so far: those of the sweeps run
    /// until now, to tell their pushes from a later sweep's.
    func connectionsSoFar() throws -> Set<String> { Set(try standIn.state().receivedConnections().map(\.connection)) }

    /// The tokens pushed on any of `connections`.
    func tokens(pushedOn connections: Set<String>) throws -> Set<String> {
        Set(try standIn.state().receivedConnections().filter { connections.contains($0.connection) }.map(\.token))
    }

    /// Rows whose lease is still in force by the database's clock.
    func leasedRows() throws -> Int64 {
        try database.scalar("SELECT count(*) FROM push_targets WHERE lease_until >= liveactivity_now_ms()") ?? -1
    }

    /// Waits (bounded) until no row's lease is in force any more, by the database's clock.
    func waitForLeasesToEnd(timeout: TimeInterval = 180) -> Bool {
        waitUntil(timeout: timeout) { ((try? self.leasedRows()) ?? -1) == 0 }
    }

    /// Registrations whose outcome was written (a 200 counted).
    func pushedRows() throws -> Int64 { try database.scalar("SELECT count(*) FROM push_targets WHERE push_count > 0") ?? -1 }

    /// What a row's outcome wrote, per token, of the rows `host`'s lease last stamped.
    func writtenBy(_ host: String) throws -> [String: [String?]] {
        var rows: [String: [String?]] = [:]
        for row in try database.rows(
            """
            SELECT push_token, next_push_at::text, last_push_at::text, push_count::text, consecutive_failures::text, lease_id
            FROM push_targets WHERE lease_host = '\(host)'
            """)
        {
            rows[row[0] ?? ""] = Array(row.dropFirst())
        }
        return rows
    }

    /// The summary line's `sent=` of a sweep's output.
    static func sent(_ output: String) -> Int { Int(SweepFixture.field("sent", in: output) ?? "") ?? -1 }
}

/// A host's output has no crash in it: no backtrace, no Swift runtime error.
func isCrashFree(_ output: String) -> Bool {
    !output.contains("Fatal error") && !output.contains("Backtrace") && !output.contains("backtrace")
        && !output.contains("Stack dump")
}
