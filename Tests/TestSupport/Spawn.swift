import Foundation

/// Where a spawned process's standard streams go.
public struct SpawnRedirections {
    public enum Source {
        case null
        case descriptor(Int32)
        /// A file created (or truncated) for stdout and stderr together.
        case file(String)
    }
    public var standardInput = Source.null
    /// stdout and stderr together, unless `standardError` is set.
    public var output = Source.null
    public var standardError: Source?

    public init() {}
}

/// Starts `executable` with posix_spawn in a process group of its own (so a stop reaches what it
/// starts, a crash's `swift-backtrace` included), with no signal blocked and every signal at its
/// default: the test runner's threads block nearly every signal, and a child would inherit that
/// mask and ignore SIGTERM. No descriptor of the runner but the three given leaks into it (a
/// leaked pipe end would keep another test's reader waiting for the child to end). The caller
/// reaps it with `waitpid`; Foundation's `Process` waits only for the processes it started.
public func spawnInOwnGroup(
    _ executable: String, _ arguments: [String], environment: [String: String]?, _ redirections: SpawnRedirections
) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    func redirect(_ source: SpawnRedirections.Source, to target: Int32, writing: Bool) {
        switch source {
        case .null: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", writing ? O_WRONLY : O_RDONLY, 0)
        case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, target)
        case .file(let path):
            posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o600)
        }
    }
    redirect(redirections.standardInput, to: 0, writing: false)
    redirect(redirections.output, to: 1, writing: true)
    if let standardError = redirections.standardError {
        redirect(standardError, to: 2, writing: true)
    } else {
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
    }
    _ = GNUCalls.addCloseFrom(&actions, 3)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    var all = sigset_t()
    sigemptyset(&none)
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let variables = environment ?? ProcessInfo.processInfo.environment
    let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    guard spawned == 0 else { throw SocketError("cannot run \(executable): \(String(cString: strerror(spawned)))") }
    return pid
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34) and `pipe2`, which Swift's Glibc
/// module does not declare (they need `_GNU_SOURCE`): looked up once by name.
enum GNUCalls {
    typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32

    nonisolated(unsafe) static let addCloseFrom: AddCloseFrom = unsafeBitCast(
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")!, to: AddCloseFrom.self)
    nonisolated(unsafe) static let pipe2: Pipe2 = unsafeBitCast(
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2")!, to: Pipe2.self)
}
