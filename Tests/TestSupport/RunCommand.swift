import Foundation
import Testing

/// The result of running a command to completion.
public struct CommandResult: Sendable {
    /// The exit status, or 128 + the signal that ended it.
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public var end: ProcessEnd
}

/// Runs `executable` to completion with optional standard input, in a process group of its own.
/// After `timeout` seconds the group is killed and a test failure recorded; a signal that ended
/// it (a crash) is recorded too, unless the caller judges that itself (`crashFailsTheTest`: false).
/// `standardErrorPath`: a file stderr is opened on instead of a pipe (`/dev/full`, a disk that
/// is full); `stderr` is then empty.
/// Reading its output is bounded as well: once it has ended, a grandchild still holding the pipes
/// gets two seconds, then is killed with the group.
public func runCommand(
    _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
    input: [UInt8]? = nil, timeout: TimeInterval = 60, crashFailsTheTest: Bool = true,
    standardErrorPath: String? = nil
) throws -> CommandResult {
    // Close-on-exec here; the spawn dups each onto 0, 1 or 2 (which clears it).
    func makePipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard GNUCalls.pipe2(&ends, O_CLOEXEC) == 0 else { throw SocketError("pipe: \(String(cString: strerror(errno)))") }
        return (ends[0], ends[1])
    }
    let inPipe = try makePipe()
    let outPipe = try makePipe()
    let errPipe = try makePipe()
    var redirections = SpawnRedirections()
    redirections.standardInput = .descriptor(inPipe.read)
    redirections.output = .descriptor(outPipe.write)
    redirections.standardError = .descriptor(errPipe.write)
    var errorFile: Int32 = -1
    if let standardErrorPath {
        errorFile = open(standardErrorPath, O_WRONLY | O_CLOEXEC)
        guard errorFile >= 0 else { throw SocketError("cannot open \(standardErrorPath): \(String(cString: strerror(errno)))") }
        redirections.standardError = .descriptor(errorFile)
    }
    defer { if errorFile >= 0 { close(errorFile) } }
    let pid: pid_t
    do {
        pid = try spawnInOwnGroup(executable, arguments, environment: environment, redirections)
    } catch {
        for descriptor in [inPipe.read, inPipe.write, outPipe.read, outPipe.write, errPipe.read, errPipe.write] {
            close(descriptor)
        }
        throw error
    }
    close(inPipe.read)
    close(outPipe.write)
    close(errPipe.write)

    // One thread, poll(2) on all three ends: a child that reads no input or a chatty one never
    // blocks on a full pipe, and nothing here waits without a limit.
    var pending = input ?? []
    var writeEnd: Int32 = inPipe.write
    // A child may exit without reading its input: that must be EPIPE here, not a SIGPIPE that
    // kills the test runner.
    signal(SIGPIPE, SIG_IGN)
    if pending.isEmpty {
        close(writeEnd)
        writeEnd = -1
    } else {
        _ = fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK)
    }
    var readEnds = [outPipe.read, errPipe.read]
    var collected: [[UInt8]] = [[], []]
    var status: Int32 = 0
    var reaped = false
    var timedOut = false
    let deadline = ContinuousClock.now + .seconds(timeout)
    var drainDeadline: ContinuousClock.Instant?
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        if !reaped, waitpid(pid, &status, WNOHANG) == pid {
            reaped = true
            drainDeadline = ContinuousClock.now + .seconds(2)
        }
        let openReads = readEnds.filter { $0 >= 0 }
        if reaped && openReads.isEmpty { break }
        if let drainDeadline, ContinuousClock.now > drainDeadline { break }
        if !reaped && ContinuousClock.now > deadline {
            timedOut = true
            kill(-pid, SIGKILL)
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            reaped = true
            drainDeadline = ContinuousClock.now + .seconds(2)
        }
        var descriptors = openReads.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        if writeEnd >= 0 { descriptors.append(pollfd(fd: writeEnd, events: Int16(POLLOUT), revents: 0)) }
        if descriptors.isEmpty {
            usleep(5_000)
            continue
        }
        _ = poll(&descriptors, nfds_t(descriptors.count), 20)
        for entry in descriptors where entry.revents != 0 {
            if entry.fd == writeEnd {
                let written = pending.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
                if written > 0 { pending.removeFirst(written) }
                // EPIPE: the child exited without reading the rest.
                if pending.isEmpty || (written < 0 && errno != EAGAIN && errno != EINTR) {
                    close(writeEnd)
                    writeEnd = -1
                }
                continue
            }
            guard let index = readEnds.firstIndex(of: entry.fd) else { continue }
            let count = read(entry.fd, &buffer, buffer.count)
            if count > 0 {
                collected[index] += buffer[0..<count]
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                close(entry.fd)
                readEnds[index] = -1
            }
        }
    }
    // Whatever of the group outlived it (a grandchild holding the pipes) goes with it. The
    // leader is reaped, so its id may in principle be reused; a group outliving its leader by
    // two seconds and such a reuse at once is not a case these tests meet.
    if readEnds.contains(where: { $0 >= 0 }) { kill(-pid, SIGKILL) }
    for descriptor in readEnds + [writeEnd] where descriptor >= 0 { close(descriptor) }

    let end = ProcessEnd(waitStatus: status)
    let name = URL(fileURLWithPath: executable).lastPathComponent
    let stderr = String(decoding: collected[1], as: UTF8.self)
    if timedOut {
        Issue.record("\(name) did not finish within \(Int(timeout)) s and was killed; stderr: \(stderr.suffix(1500))")
    } else if case .signalled = end, crashFailsTheTest {
        Issue.record("\(name) crashed: \(end); stderr: \(stderr.suffix(1500))")
    }
    return CommandResult(
        status: end.status, stdout: String(decoding: collected[0], as: UTF8.self), stderr: stderr, end: end)
}
