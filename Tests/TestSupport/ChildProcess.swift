import Foundation

/// A process a test started, stopped by its own PID when released (SIGTERM, then SIGKILL).
public final class ChildProcess: @unchecked Sendable {
    public let process: Process
    public let outputPath: String?

    /// Starts `executable` with `arguments`; stdout and stderr go to `outputPath` when given.
    public init(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
        outputPath: String? = nil, standardInput: FileHandle? = nil
    ) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        self.outputPath = outputPath
        if let outputPath {
            _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
            process.standardOutput = handle
            process.standardError = handle
        } else {
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
        }
        process.standardInput = standardInput ?? FileHandle.nullDevice
        try withUnblockedSignals { try process.run() }
    }

    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }

    /// Sends `signal` to the process.
    public func signal(_ signal: Int32) { kill(pid, signal) }

    /// Stops the process: SIGTERM, up to two seconds, then SIGKILL.
    public func stop() {
        guard process.isRunning else { return }
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(pid, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// What the process wrote so far, when its output goes to a file.
    public var output: String {
        guard let outputPath else { return "" }
        return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    deinit { stop() }
}

/// The result of running a command to completion.
public struct CommandResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// Runs `executable` to completion with optional standard input; kills it after `timeout` seconds.
public func runCommand(
    _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
    input: [UInt8]? = nil, timeout: TimeInterval = 60
) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe()
    let err = Pipe()
    let inPipe = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = inPipe
    try withUnblockedSignals { try process.run() }
    // Read both pipes on other threads so a chatty child never blocks on a full pipe.
    let outData = LockedBox(Data())
    let errData = LockedBox(Data())
    let group = DispatchGroup()
    for (pipe, box) in [(out, outData), (err, errData)] {
        group.enter()
        DispatchQueue.global().async {
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            box.set(data)
            group.leave()
        }
    }
    // A child may exit without reading its input: that must be EPIPE here, not a SIGPIPE that
    // kills the test runner.
    signal(SIGPIPE, SIG_IGN)
    if let input { try? inPipe.fileHandleForWriting.write(contentsOf: Data(input)) }
    try? inPipe.fileHandleForWriting.close()
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(5_000) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    group.wait()
    return CommandResult(
        status: process.terminationStatus,
        stdout: String(decoding: outData.get(), as: UTF8.self),
        stderr: String(decoding: errData.get(), as: UTF8.self))
}

/// A value shared between threads behind a lock.
public final class LockedBox<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    public init(_ value: Value) { self.value = value }
    public func get() -> Value {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
    public func set(_ newValue: Value) {
        lock.lock()
        value = newValue
        lock.unlock()
    }
    public func update<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

/// Runs `body` (a spawn) with no signal but SIGCHLD blocked on this thread. A child inherits its
/// spawner's signal mask, and the test runner's threads block nearly every signal: a child
/// spawned from one would ignore SIGTERM and only die by SIGKILL, two seconds later.
/// SIGCHLD stays blocked: Foundation learns that a child exited through a signalfd, which sees
/// only blocked signals. A SIGCHLD that arrived while this thread let it through would be
/// discarded (its default action), so that child's Process would never be seen to end, and a
/// test waiting for it would hang for good.
func withUnblockedSignals<T>(_ body: () throws -> T) rethrows -> T {
    var onlyChildExits = sigset_t()
    var previous = sigset_t()
    sigemptyset(&onlyChildExits)
    sigaddset(&onlyChildExits, SIGCHLD)
    pthread_sigmask(SIG_SETMASK, &onlyChildExits, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    return try body()
}
