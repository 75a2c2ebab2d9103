// The registration responder (docs/API.md): FastCGI behind nginx, spawn-fcgi or its own
// socket, or one CGI request. It reads no APNs key: the web-facing process holds no secret.
import FastCGIWire
import Glibc
import LiveActivityDomain
import LiveActivityStore
import RegistrationService
import StoreEngines

let program = "liveactivity-fcgi"
// The responder (web user) and the sweep (key owner) share the database through their group:
// files either creates must stay group-writable and private to everyone else.
umask(0o007)
// Every line time-stamped: under spawn-fcgi it lands in a log file with the supervisor's.
let log: @Sendable (String) -> Void = { Log.line(program, $0) }
let arguments = Array(CommandLine.arguments.dropFirst())
let options: TransportOptions
do {
    switch try TransportOptions.parse(arguments, maximumBodySize: RegistrationAPI.maximumBodySize) {
    case .serve(let parsed): options = parsed
    case .help:
        print(
            TransportOptions.help(
                program: program,
                synopsis: ["[--socket PATH|HOST:PORT] [--socket-mode OCTAL] [--workers N] [--backlog N] [--supervise]"],
                settings: "Settings come from the environment (LIVEACTIVITY_DB, LIVEACTIVITY_CONFIG, ...; docs/CONFIGURATION.md)."
            ))
        exit(0)
    case .version:
        print(ReleaseVersion.line(program: program))
        exit(0)
    }
} catch {
    log(error.description)
    exit(2)
}

let configuration: Configuration
let engine: any StoreEngine
do {
    let settings = try Settings.fromProcess()
    var read = try Configuration(settings: settings)
    // It answers with the effective interval and matches acks by it (docs/API.md, docs/CONFIGURATION.md).
    try read.readPushIntervals(settings)
    // It answers status, health and metrics to these networks besides loopback (docs/API.md).
    try read.readMonitorAccess(settings)
    // The apps an nginx location may name, and each one's environments (docs/CONFIGURATION.md).
    try read.readApps(settings)
    configuration = read
    engine = try StoreEngines.engine(for: read)
} catch {
    log(error.description)
    exit(2)
}

// One writing connection for the process: workers' writes are committed together (group commit)
// rather than queueing on the database's lock, and one reading connection for the figures.
let writer = RegistrationWriter(engine: engine)
// One fault log for the process: a lasting fault is one line a minute, not one per request and worker.
let faults = FaultLog()
// One diagnostics limit for the process: a few a minute per token, whichever worker answers.
let diagnosticsLimit = DiagnosticsLimit()
let startup =
    "database \(engine.location), default environment \(configuration.defaultEnvironment.rawValue), "
    + "accepting \(configuration.enabledEnvironments.map(\.rawValue).joined(separator: ","))"
    + (configuration.apps.count > 1 ? ", apps \(configuration.apps.keys.sorted().map(\.rawValue).joined(separator: ","))" : "")
// Each worker answers with an API of its own, all sharing the writer, the fault log and the limit.
// No exit handler may run while a worker thread still uses a library: see ProcessExit.
// A request read while it stops is answered as nginx answers when it is down (docs/API.md's errors).
var stopping = APIError.unavailable.response
stopping.headers.append(("Retry-After", "5"))
ProcessExit.now(
    FastCGIServer.run(options, startupMessage: startup, stoppingResponse: stopping, log: log) { _ in
        RegistrationAPI(
            configuration: configuration, writer: writer, location: engine.location, faults: faults,
            diagnosticsLimit: diagnosticsLimit, log: log)
    })
