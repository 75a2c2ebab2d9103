import Foundation
import SystemSupport
import Testing

/// A throwaway PostgreSQL server for tests (Debian's postgresql): a cluster in a temporary folder,
/// made and run by scripts/postgres-cluster as an unprivileged user (`nobody` under root), reached
/// only through the unix socket in its folder, stopped and removed with this value.
///
/// Ordinary tests share one (`PostgresCluster.shared()`), each in a database of its own
/// (`createDatabase`). A test that stops, kills, freezes or restarts a server, or needs a standby,
/// makes its own with `init`. The server is this process's child (not pg_ctl's, which would detach
/// it), so each stop is reaped and judged like any `ChildProcess`, every wait bounded.
public final class PostgresCluster: Sendable {
    /// The cluster's folder: `data` and `socket` are the server's, its logs are beside them.
    public let folder: String
    /// The port naming the socket (`socket/.s.PGSQL.5432`); no TCP port is open.
    public let port = 5432
    /// The superuser, who logs in without a password.
    public static let superuser = "postgres"

    /// Removes the folder once the server is stopped; nil for a cluster someone else runs.
    private let directory: TemporaryDirectory?
    /// What the test's threads share of the server.
    private struct State {
        var server: ChildProcess?
        var frozen = false
        /// While frozen: kills the stopped processes should this test process die first.
        var watchdog: ChildProcess?
        var starts = 0
        var names = 0
    }

    private let state = LockedValue(State())

    /// A new cluster, initdb'd in a temporary folder and not started yet (`start()`).
    public convenience init(_ label: String = "pg") throws {
        let directory = TemporaryDirectory(label)
        try Self.script(["init", directory.path])
        self.init(directory: directory)
    }

    init(directory: TemporaryDirectory) {
        self.directory = directory
        folder = directory.path
    }

    /// The cluster scripts/test runs, in `folder`: used, never stopped from here.
    init(runningIn folder: String) {
        directory = nil
        self.folder = folder
    }

    deinit { stop() }

    /// The folder holding the server's socket (libpq's `host`).
    public var socketDirectory: String { folder + "/socket" }

    /// Whether the server runs and is not frozen: a database or a role can be made or dropped.
    public var isServing: Bool {
        directory == nil || state.withLock { $0.server?.isRunning == true && !$0.frozen }
    }

    // MARK: - Life

    /// Starts the server and waits (bounded) until it accepts connections; after a `kill()` that
    /// includes its crash recovery.
    public func start() throws {
        precondition(directory != nil, "the shared cluster is scripts/test's to start and stop")
        let (child, log) = try state.withLock { state in
            precondition(state.server == nil, "the server is already running")
            state.starts += 1
            let log = "\(folder)/server-\(state.starts).log"
            let script = Self.scriptPath
            let folder = folder
            let child = try ServerSpawner.shared.run { try ChildProcess(script, ["run", folder], outputPath: log) }
            state.server = child
            return (child, log)
        }
        // A loaded two-core machine recovering a crashed cluster takes seconds; two minutes is ample.
        let ready = waitUntil(timeout: 120) { !child.isRunning || self.acceptsConnections(pid: child.pid) }
        guard ready, child.isRunning else {
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw ClusterError("the PostgreSQL server in \(folder) did not start: \(output.suffix(2000))")
        }
    }

    /// Stops the server the fast way (SIGINT: sessions ended, a checkpoint, exit 0) and reaps it;
    /// a frozen one is thawed first. Anything but exit status 0 fails the test.
    public func stop() {
        guard directory != nil, let server = state.withLock({ $0.server }) else { return }
        thaw()
        server.signal(SIGINT)
        if server.waitForExit(timeout: 120) == nil {
            Issue.record("the PostgreSQL server in \(folder) did not stop within 120 s of SIGINT")
        }
        server.stop(timeout: 10)
        state.withLock { $0.server = nil }
    }

    /// Crashes the server: SIGKILL to the postmaster and every process it started, as a power cut
    /// would end them. The next `start()` recovers from the WAL.
    public func kill() {
        guard directory != nil, let server = state.withLock({ $0.server }) else { return }
        let processes = haltServerAndChildren(server)
        server.signal(SIGKILL)
        for pid in processes { Glibc.kill(pid, SIGKILL) }
        endWatchdog()
        if server.waitForExit(timeout: 30) == nil {
            Issue.record("the PostgreSQL server in \(folder) outlived SIGKILL for 30 s")
        }
        server.stop(timeout: 10)
        // Its children are the init process's now, reaped there; a new server must not meet them.
        if !waitUntil(timeout: 30, { processes.allSatisfy { [nil, "Z"].contains(processState(of: $0)) } }) {
            Issue.record("processes of the killed PostgreSQL server in \(folder) outlived SIGKILL for 30 s")
        }
        state.withLock { state in
            state.server = nil
            state.frozen = false
        }
    }

    /// `stop()`, then `start()`.
    public func restart() throws {
        stop()
        try start()
    }

    /// Freezes the server (SIGSTOP to the postmaster and every process it started): connections
    /// stay open and nothing answers, as on a host that stopped.
    public func freeze() {
        guard directory != nil, let server = state.withLock({ $0.server }), !state.withLock({ $0.frozen }) else { return }
        let processes = haltServerAndChildren(server)
        let script = Self.scriptPath
        do {
            let watchdog = try ServerSpawner.shared.run { try ChildProcess(script, ["watch"] + processes.map(String.init)) }
            state.withLock { $0.watchdog = watchdog }
        } catch {
            Issue.record("the frozen server's watchdog did not start: \(error)")
        }
        state.withLock { $0.frozen = true }
    }

    /// Lets a frozen server go on (SIGCONT to its processes, the postmaster last).
    public func thaw() {
        guard let server = state.withLock({ $0.server }), state.withLock({ $0.frozen }) else { return }
        endWatchdog()
        for pid in childProcesses(of: server.pid) { Glibc.kill(pid, SIGCONT) }
        server.signal(SIGCONT)
        state.withLock { $0.frozen = false }
    }

    /// Ends the watchdog of a frozen server (SIGINT: it exits 0 and kills nothing).
    private func endWatchdog() {
        guard let watchdog = state.withLock({ $0.watchdog }) else { return }
        watchdog.signal(SIGINT)
        watchdog.waitForExit(timeout: 30)
        watchdog.stop(timeout: 10)
        state.withLock { $0.watchdog = nil }
    }

    /// Stops the postmaster (so it starts no one new), then every process it started (each in a
    /// session of its own, out of the postmaster's process group); returns those.
    private func haltServerAndChildren(_ server: ChildProcess) -> [Int32] {
        server.signal(SIGSTOP)
        if !waitUntil(timeout: 30, { [nil, "T", "Z"].contains(processState(of: server.pid)) }) {
            Issue.record("the PostgreSQL server in \(folder) did not stop on SIGSTOP within 30 s")
        }
        let processes = childProcesses(of: server.pid)
        for pid in processes { Glibc.kill(pid, SIGSTOP) }
        return processes
    }

    /// postmaster.pid names `pid` and says it accepts connections ("ready", or "standby" for a
    /// hot standby): https://www.postgresql.org/docs/current/storage-file-layout.html.
    func acceptsConnections(pid: Int32) -> Bool {
        guard let text = try? String(contentsOfFile: folder + "/data/postmaster.pid", encoding: .utf8) else { return false }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count > 7, Int32(lines[0]) == pid else { return false }
        return lines[7].hasPrefix("ready") || lines[7].hasPrefix("standby")
    }

    // MARK: - The script

    static let scriptPath = packageRoot + "/scripts/postgres-cluster"

    /// Runs scripts/postgres-cluster with `arguments`; its stdout, or a failure with its stderr.
    @discardableResult
    static func script(_ arguments: [String]) throws -> String {
        let result = try runCommand(scriptPath, arguments, timeout: 180)
        guard result.status == 0 else {
            throw ClusterError("postgres-cluster \(arguments.first ?? ""): \(result.stderr.suffix(2000))")
        }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Where the server's programs and psql are.
    static let binaries: String = (try? script(["bindir"])) ?? "/usr/lib/postgresql/15/bin"

    /// A name no other database or role of this cluster has, from `label` (lowercase letters,
    /// digits and `_`, within PostgreSQL's 63 bytes).
    public func uniqueName(_ label: String) -> String {
        let number = state.withLock { state in
            state.names += 1
            return state.names
        }
        let cleaned = String(label.lowercased().map { $0.isLetter && $0.isASCII || $0.isNumber ? $0 : "_" }.prefix(30))
        return "t\(getpid())_\(number)_\(cleaned)"
    }
}
