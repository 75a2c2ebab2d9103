import TestSupport

/// The responder as the shipped @reboot line runs it: under spawn-fcgi (the socket on stdin) with
/// `--supervise`, behind nginx. `stack.responder` is the supervisor.
func supervisedStack(_ engine: TestEngine, label: String) throws -> LiveStack {
    var options = LiveStack.Options(engine: engine)
    options.launcher = .spawnFCGI
    options.workers = 2
    options.arguments = ["--supervise"]
    return try LiveStack(options, label: label)
}
