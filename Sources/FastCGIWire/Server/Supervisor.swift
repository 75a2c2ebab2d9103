import Glibc
import Synchronization
import SystemSupport

/// `--supervise`: this process becomes a small supervisor that runs the same executable (without
/// the flag) as its child and starts it again whenever it exits - for hosts without systemd,
/// where spawn-fcgi starts the responder once and nothing brings it back.
///
/// The child inherits stdin, so under spawn-fcgi every restart serves the same listening socket
/// (nginx's connections wait in its backlog meanwhile); with `--socket` the child opens it again.
/// SIGTERM/SIGINT stop the child and then the supervisor; SIGHUP restarts the child at once (after
/// installing a new binary). A child that exits with status 2 (a wrong argument or setting) is not
/// restarted: it would fail the same way again.
enum Supervisor {
    /// What the signal handlers tell the loop: the child's pid, and whether to stop or restart.
    private static let childPID = Atomic<Int32>(0)
    private static let stopRequested = Atomic<Bool>(false)
    private static let restartRequested = Atomic<Bool>(false)

    /// Runs the supervision loop; returns the supervisor's exit status.
    static func run(log logLine: @escaping @Sendable (String) -> Void) -> Int32 {
        let log: @Sendable (String) -> Void = { logLine("supervisor: " + $0) }
        let executable =
            ProcessEnvironment.executablePath() ?? CommandLine.arguments[0]
        let arguments = [executable] + CommandLine.arguments.dropFirst().filter { $0 != "--supervise" }
        installSignalHandlers()
        log("supervising \(executable): restarted whenever it exits; SIGTERM stops both, SIGHUP restarts it")

        var delay: Double = 1
        while !stopRequested.load(ordering: .sequentiallyConsistent) {
            let started = ContinuousClock.now
            guard let pid = spawn(arguments) else {
                log("cannot start \(executable): \(String(cString: strerror(errno))); retrying in \(Int(delay)) s")
                pause(delay)
                delay = min(delay * 2, 30)
                continue
            }
            childPID.store(pid, ordering: .sequentiallyConsistent)
            // A stop that arrived between the loop's check and the store above.
            if stopRequested.load(ordering: .sequentiallyConsistent) { kill(pid, SIGTERM) }
            let status = waitForExit(pid)
            childPID.store(0, ordering: .sequentiallyConsistent)
            if stopRequested.load(ordering: .sequentiallyConsistent) { break }

            let exitCode = status & 0x7f == 0 ? (status >> 8) & 0xff : nil
            let how = exitCode.map { "exited with status \($0)" } ?? "was killed by signal \(status & 0x7f)"
            if restartRequested.exchange(false, ordering: .sequentiallyConsistent) {
                log("child \(pid) \(how) on SIGHUP; starting it again")
                delay = 1
                continue
            }
            if exitCode == 2 {
                log("child \(pid) \(how) (a wrong argument or setting): not restarting it")
                return 2
            }
            // Quick deaths back off (1, 2, 4 ... 30 s) so a crash loop cannot eat the host.
            delay = ContinuousClock.now - started > .seconds(10) ? 1 : delay
            log("child \(pid) \(how); restarting it in \(Int(delay)) s")
            pause(delay)
            delay = min(delay * 2, 30)
        }
        log("stopped on signal")
        return 0
    }

    private static func installSignalHandlers() {
        let stop: @convention(c) (Int32) -> Void = { _ in
            Supervisor.stopRequested.store(true, ordering: .sequentiallyConsistent)
            let pid = Supervisor.childPID.load(ordering: .sequentiallyConsistent)
            if pid > 0 { kill(pid, SIGTERM) }
        }
        let restart: @convention(c) (Int32) -> Void = { _ in
            Supervisor.restartRequested.store(true, ordering: .sequentiallyConsistent)
            let pid = Supervisor.childPID.load(ordering: .sequentiallyConsistent)
            if pid > 0 { kill(pid, SIGTERM) }
        }
        signal(SIGTERM, stop)
        signal(SIGINT, stop)
        signal(SIGHUP, restart)
        signal(SIGPIPE, SIG_IGN)
        var signals = sigset_t()
        sigemptyset(&signals)
        for number in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&signals, number) }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// Starts the child with the supervisor's stdin, stdout, stderr and environment, default
    /// signal handling and no blocked signals.
    private static func spawn(_ arguments: [String]) -> pid_t? {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        var defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        for number in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, arguments[0], nil, &attributes, argv, environ)
        guard rc == 0 else {
            errno = rc
            return nil
        }
        return pid
    }

    /// The child's wait status, once it has exited.
    private static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return 0 }
        }
        return status
    }

    /// Sleeps `seconds`, waking early when a stop is requested.
    private static func pause(_ seconds: Double) {
        // Monotonic, as every bound in time here: a step of the wall clock changes no delay.
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline && !stopRequested.load(ordering: .sequentiallyConsistent) { usleep(50_000) }
    }
}
