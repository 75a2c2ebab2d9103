import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// SIGTERM or SIGINT asked the sweep to stop (a systemd stop, an operator's kill or Ctrl-C): it
/// then does what it does past its time budget - sends nothing new, lets the pushes in flight
/// finish briefly, writes every outcome and exits 0 - instead of dying mid-write.
public enum StopRequest {
    private static let flag = Atomic<Bool>(false)

    /// Whether a stop was asked for.
    public static var isRequested: Bool { flag.load(ordering: .relaxed) }

    /// Routes SIGTERM and SIGINT to the flag (once, from the main thread, before the sweep).
    /// The handler only stores to an atomic, which is async-signal-safe.
    public static func install() {
        let handler: @convention(c) (Int32) -> Void = { _ in StopRequest.flag.store(true, ordering: .relaxed) }
        signal(SIGTERM, handler)
        signal(SIGINT, handler)
    }
}
