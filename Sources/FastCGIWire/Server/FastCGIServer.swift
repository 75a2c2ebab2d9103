import CFastCGI
import Glibc
import SystemSupport

/// The FastCGI/CGI front end: picks the mode, runs the workers, stops on SIGTERM/SIGINT.
public enum FastCGIServer {
    /// Serves with one responder per worker, made on the worker's own thread by `makeResponder`
    /// (given the worker's index; CGI makes one, index 0). Returns the process's exit status:
    /// after a signal once in-flight requests are answered (0), when every worker failed (1),
    /// when it cannot start (1) or stdin is neither a socket nor a CGI request (2).
    ///
    /// Modes: `options.address` set: open that socket. Else stdin is a listening socket
    /// (`FCGX_IsCGI() == 0`, spawn-fcgi): serve it. Else, with `GATEWAY_INTERFACE` set: CGI.
    /// `startupMessage` opens the one line logged when FastCGI serving starts (CGI logs none).
    /// `stoppingResponse` answers the requests read after SIGTERM/SIGINT that are not served.
    /// With `options.supervise`, this process only supervises a child that does all of that.
    /// The caller ends the process with `ProcessExit.now(status)`, not `exit`: worker threads
    /// still live when this returns.
    public static func run(
        _ options: TransportOptions,
        startupMessage: String = "starting",
        stoppingResponse: HTTPResponse = .stopping,
        log: @escaping @Sendable (String) -> Void,
        makeResponder: @escaping @Sendable (_ worker: Int) throws -> any HTTPResponder
    ) -> Int32 {
        if options.supervise { return Supervisor.run(log: log) }
        // A client (or CGI server) that hangs up must cost its request only, never the process.
        signal(SIGPIPE, SIG_IGN)
        // libfcgi's FCGX_Init installs a SIGTERM handler of its own that only sets a flag: a stop
        // signal arriving between it and ours (`StopSignal`) was swallowed, and the process
        // served on until SIGKILL (seen about once in 2,500 restarts). So the stop signals are
        // held from here; ours unblocks them, and one that came meanwhile is delivered to it. A
        // run that does not serve (CGI, an error) gets the mask back as it was.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGTERM)
        sigaddset(&stopSignals, SIGINT)
        var previousMask = sigset_t()
        pthread_sigmask(SIG_BLOCK, &stopSignals, &previousMask)
        defer { pthread_sigmask(SIG_SETMASK, &previousMask, nil) }
        guard ListeningSocket.libraryReady else {
            log("FCGX_Init failed")
            return 1
        }
        let environment = ProcessEnvironment.variables()
        let address: ListenAddress
        if let configured = options.address {
            address = configured
        } else if FCGX_IsCGI() == 0 {
            address = .inherited
        } else if let gateway = environment["GATEWAY_INTERFACE"], !gateway.isEmpty {
            return CGIExchange.respondOnce(
                environment: environment, bodyLimit: options.maximumBodySize, log: log, makeResponder: makeResponder)
        } else {
            log(
                "stdin is not a FastCGI listening socket and GATEWAY_INTERFACE is unset: pass --socket, run under spawn-fcgi, or as CGI"
            )
            return 2
        }
        do throws(TransportStartError) {
            return try serve(
                on: address, options, startupMessage: startupMessage, stoppingResponse: stoppingResponse, log: log,
                makeResponder: makeResponder)
        } catch {
            log(error.description)
            return 1
        }
    }

    private static func serve(
        on address: ListenAddress, _ options: TransportOptions, startupMessage: String, stoppingResponse: HTTPResponse,
        log: @escaping @Sendable (String) -> Void,
        makeResponder: @escaping @Sendable (Int) throws -> any HTTPResponder
    ) throws(TransportStartError) -> Int32 {
        let socket = try ListeningSocket(address, backlog: options.backlog)
        let stop = try StopSignal()
        stop.installSignalHandlers()
        // Before any worker runs, so the line precedes everything a request may log.
        log("\(startupMessage); serving FastCGI on \(address) with \(options.workers) workers")
        let workers = WorkerPool(socket: socket, stoppingResponse: stoppingResponse)
        workers.start(count: options.workers, bodyLimit: options.maximumBodySize, log: log, makeResponder: makeResponder) {
            stop.post(.workersFailed)
        }
        let reason = stop.wait()
        workers.stop()
        switch reason {
        case .signal:
            log("stopped on signal")
            return 0
        case .workersFailed:
            log("stopped: no worker is left")
            return 1
        }
    }
}
