#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A thread of the system's own (`pthread_create`), detached: the programs' long-lived workers
/// (the responder's accept loops, the sweep's outcome writer, SQLite's checkpointer). Why not
/// Foundation's `Thread`: nothing else in the programs needs Foundation, whose static copy
/// carries ICU's data (some 30 MB per program); the pool behind Dispatch is no home for loops
/// that block for the life of the process.
public enum SystemThread {
    /// Starts `body` on a new thread named `name` (at most 15 bytes reach the kernel) with
    /// `stackSize` bytes of stack; false when the system refused one (the caller says so).
    @discardableResult
    public static func start(name: String, stackSize: Int = 8 << 20, _ body: @escaping @Sendable () -> Void) -> Bool {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        pthread_attr_setstacksize(&attributes, stackSize)
        let box = Unmanaged.passRetained(ThreadBody(name: name, body: body))
        var thread = pthread_t()
        let started = pthread_create(
            &thread, &attributes,
            { context in
                let body = Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue()
                nameThisThread(body.name)
                body.body()
                return nil
            }, box.toOpaque())
        if started != 0 { box.release() }
        return started == 0
    }
}

private final class ThreadBody: Sendable {
    let name: String
    let body: @Sendable () -> Void
    init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }
}

/// Names the calling thread for `top -H` and the debugger: its `comm`, as `pthread_setname_np`
/// writes it (which Swift's Glibc module does not show).
private func nameThisThread(_ name: String) {
    let file = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard file >= 0 else { return }
    defer { close(file) }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
}
