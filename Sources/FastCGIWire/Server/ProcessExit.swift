#if canImport(Glibc)
    import Glibc
#endif

/// How a serving program ends once `FastCGIServer.run` has returned its status.
public enum ProcessExit {
    /// Flushes stdio and ends the process with `status`, running no exit handler.
    ///
    /// Why not `exit(3)`: it runs the atexit handlers (libcrypto's `OPENSSL_cleanup`, which frees
    /// its per-thread state, error and algorithm tables) on this thread while the worker threads
    /// still live: parked in `accept`, or tearing down a responder that holds an EVP key or an
    /// SQLite connection. A worker touching freed libcrypto memory is the SIGSEGV/SIGABRT the
    /// stand-in showed in ~4% of stops. Why not wait for every worker to end first: a worker
    /// waiting for the next request on a connection the web server keeps open waits as long as
    /// that server likes (its read is libfcgi's, which no signal may interrupt). So by the time
    /// this runs nothing is in flight and no worker accepts (`WorkerPool.stop` closed the door),
    /// and `_exit` ends every thread at once
    /// with no handler: each SQLite commit is already durable when it returns (the next opener
    /// recovers the WAL), and the kernel releases sockets, locks and memory.
    public static func now(_ status: Int32) -> Never {
        fflush(nil)
        _exit(status)
    }
}
