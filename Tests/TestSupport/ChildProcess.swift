import Foundation
import SystemSupport
import Testing

/// A process a test started, in a process group of its own: stopped by SIGTERM to the group,
/// then SIGKILL to the group, each wait bounded; reaped here with `waitpid`. How it ended is
/// judged: a signal the test did not send, a stop that needed SIGKILL, or an exit status after
/// SIGTERM/SIGINT outside `stopsWith` records a test failure (also when only `deinit` stops it),
/// so a crash on the way out fails the test that caused it. Dying of the SIGTERM itself is
/// such a failure too unless `stopsWith` says so: this project's programs exit 0 (SPEC 7).
public final class ChildProcess: Sendable {
    public let pid: Int32
    public let outputPath: String?
    /// The ways a stop (SIGTERM or SIGINT) may legitimately end it.
    private let stopsWith: Set<ProcessEnd>
    /// Whether a stop sends SIGTERM again every 250 ms within its bound (`resendsStop`).
    private let resendsStop: Bool
    private let name: String
    /// What the test's threads share of the process: how it ended once reaped, the signals sent,
    /// whether a stop needed SIGKILL, whether its end was judged.
    private struct State {
        var ended: ProcessEnd?
        var sentSignals: Set<Int32> = []
        var neededKill = false
        var judged = false
    }

    private let state = LockedValue(State())

    /// Starts `executable` with `arguments`; stdout and stderr go to `outputPath` when given.
    /// `stopsWith`: how SIGTERM/SIGINT may end it (`.exited(0)`, as SPEC 7 asks of this
    /// project's programs; another program may legitimately exit otherwise). `resendsStop`: a
    /// stop sends SIGTERM again every 250 ms until its bound, for another program that can lose
    /// one (nginx without a master process reads a signal's flag only when its event loop wakes:
    /// `LoopbackNginx`). Never for this project's programs: a lost SIGTERM there is a defect the
    /// stop must catch.
    public init(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
        outputPath: String? = nil, standardInput: FileHandle? = nil, stopsWith: Set<ProcessEnd> = [.exited(0)],
        resendsStop: Bool = false
    ) throws {
        self.outputPath = outputPath
        self.stopsWith = stopsWith
        self.resendsStop = resendsStop
        name = URL(fileURLWithPath: executable).lastPathComponent
        var redirections = SpawnRedirections()
        redirections.standardInput = standardInput.map { .descriptor($0.fileDescriptor) } ?? .null
        redirections.output = outputPath.map { .file($0) } ?? .null
        pid = try spawnInOwnGroup(executable, arguments, environment: environment, redirections)
    }

    /// `true` until the process has ended (it is reaped here as soon as that is seen).
    public var isRunning: Bool { poll() == nil }

    /// How it ended, nil while it runs.
    public var end: ProcessEnd? { poll() }

    /// Sends `signal` to the process itself (not its group).
    public func signal(_ signal: Int32) {
        state.withLock { state in
            guard state.ended == nil else { return }
            state.sentSignals.insert(signal)
            kill(pid, signal)
        }
    }

    /// Waits up to `timeout` seconds for the process to end on its own; nil if it still runs.
    @discardableResult
    public func waitForExit(timeout: TimeInterval = 60) -> ProcessEnd? {
        waitUntil(timeout: timeout) { poll() != nil }
        return poll()
    }

    /// Stops the process: SIGTERM to its group (again every 250 ms with `resendsStop`), up to
    /// `timeout` seconds, then SIGKILL to the group. Returns how it ended (judged as the type's
    /// comment says). The default bound is above the serving programs' own 10 s grace for
    /// requests in flight.
    @discardableResult
    public func stop(timeout: TimeInterval = 30) -> ProcessEnd {
        if poll() == nil {
            let deadline = ContinuousClock.now + .seconds(timeout)
            repeat {
                state.withLock { state in
                    state.sentSignals.insert(SIGTERM)
                    if state.ended == nil { kill(-pid, SIGTERM) }
                }
                waitForExit(timeout: resendsStop ? 0.25 : timeout)
            } while resendsStop && poll() == nil && ContinuousClock.now < deadline
            if poll() == nil {
                state.withLock { state in
                    state.neededKill = true
                    state.sentSignals.insert(SIGKILL)
                    kill(-pid, SIGKILL)
                }
            }
        }
        // SIGKILL cannot be refused; the bound only guards against a process stuck in the kernel.
        let end = waitForExit(timeout: 30) ?? .signalled(SIGKILL)
        judge(end)
        return end
    }

    /// What the process wrote so far, when its output goes to a file.
    public var output: String {
        guard let outputPath else { return "" }
        return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    deinit { stop() }

    /// Reaps the process if it has ended. The group's other members (a crash's `swift-backtrace`,
    /// an orphaned grandchild) are killed first, while the unreaped leader still holds the
    /// group's id, so the kill cannot reach an unrelated process.
    private func poll() -> ProcessEnd? {
        state.withLock { state in
            if let ended = state.ended { return ended }
            var info = siginfo_t()
            guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0, info._sifields._sigchld.si_pid == pid
            else { return nil }
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            state.ended = ProcessEnd(waitStatus: status)
            return state.ended
        }
    }

    private func judge(_ end: ProcessEnd) {
        let (first, sent, killed) = state.withLock { state in
            defer { state.judged = true }
            return (!state.judged, state.sentSignals, state.neededKill)
        }
        guard first else { return }
        // A SIGKILL the test sent itself ends any judgement of the stop: it was not given one.
        let stopped = (sent.contains(SIGTERM) || sent.contains(SIGINT)) && (killed || !sent.contains(SIGKILL))
        var problem: String?
        if killed {
            problem = "did not end on SIGTERM within its bound and was killed"
        } else if stopped, !stopsWith.contains(end) {
            problem = "\(end) after SIGTERM/SIGINT, expected \(stopsWith.map(\.description).sorted().joined(separator: " or "))"
        } else if case .signalled(let number) = end, !sent.contains(number) {
            problem = "crashed: \(end), a signal the test did not send"
        }
        if let problem {
            Issue.record("\(name) (pid \(pid)) \(problem); its output ends: \(output.suffix(1500))")
        }
    }
}

/// How a process ended, from its wait status.
public enum ProcessEnd: Hashable, Sendable, CustomStringConvertible {
    case exited(Int32)
    case signalled(Int32)

    init(waitStatus status: Int32) {
        self = status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
    }

    /// The shell's number for it: the exit status, or 128 + the signal.
    public var status: Int32 {
        switch self {
        case .exited(let code): code
        case .signalled(let number): 128 + number
        }
    }

    public var description: String {
        switch self {
        case .exited(let code): "exited with status \(code)"
        case .signalled(let number): "killed by signal \(number) (\(String(cString: strsignal(number))))"
        }
    }
}
