// The local APNs stand-in (SPEC 2): a FastCGI responder behind nginx's HTTP/2 + TLS that checks
// pushes as APNs does and records them. `--show` prints what it received.
import APNsStandIn
import FastCGIWire
import Foundation
import LiveActivityDomain

let program = "liveactivity-apns-standin"

func fail(_ message: String, code: Int32) -> Never {
    Log.write("\(program): \(message)\n", to: 2)
    exit(code)
}

let arguments = Array(CommandLine.arguments.dropFirst())

// `--show [N]`: the last N pushes received (default 20), for a person watching the local run.
if arguments.first == "--show" {
    let count = arguments.dropFirst().first.flatMap { Int($0) } ?? 20
    // The same file the serving stand-in uses: STANDIN_DB from the environment or LIVEACTIVITY_CONFIG.
    let path = (try? Settings.fromProcess())?.text("STANDIN_DB") ?? "./var/apns-standin.sqlite"
    do {
        let received = try StandInState(path: path).received().suffix(count)
        for push in received {
            let time = Date(timeIntervalSince1970: Double(push.receivedAt) / 1000)
            print(
                "\(time) \(push.environment.rawValue) \(push.deviceToken.prefix(8))… \(push.status)\(push.reason.map { " " + $0 } ?? "") \(push.serverProtocol) \(push.pushType ?? "-")/\(push.priority ?? "-") \(push.payload)"
            )
        }
        if received.isEmpty { print("no pushes received yet") }
        exit(0)
    } catch {
        fail("cannot read \(path): \(error)", code: 3)
    }
}

let options: TransportOptions
do {
    switch try TransportOptions.parse(arguments, maximumBodySize: 64 * 1024) {
    case .serve(let parsed): options = parsed
    case .help:
        print(
            TransportOptions.help(
                program: program,
                synopsis: [
                    "[--socket PATH|HOST:PORT] [--workers N]    serve behind nginx (HTTP/2 + TLS)",
                    "--show [N]                                 the last N pushes received",
                ],
                settings:
                    "Settings: APNS_KEY_ID, APNS_TEAM_ID, APNS_BUNDLE_ID, APNS_KEY_PATH (or STANDIN_PUBLIC_KEY_PATH), STANDIN_DB,\n"
                    + "STANDIN_KEY_ENVIRONMENTS (the environments the key may send to; default both), and for each app\n"
                    + "LIVEACTIVITY_APPS names, the same names with its suffix (_OTHER_APP), the default app's where unset."))
        exit(0)
    case .version:
        print(ReleaseVersion.line(program: program))
        exit(0)
    }
} catch {
    Log.line(program, error.description)
    exit(2)
}

let configuration: StandInConfiguration
do {
    configuration = try StandInConfiguration.fromProcess()
} catch {
    fail("\(error)", code: 2)
}

/// Each worker owns a stand-in with its own connection to the stand-in's database; nginx hands
/// the HTTP/2 request's headers over as `HTTP_*` parameters, which `StandInRequest` maps back.
final class StandInHTTPResponder: HTTPResponder {
    let standIn: StandInResponder
    init(_ standIn: StandInResponder) { self.standIn = standIn }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        standIn.respond(
            to: StandInRequest(
                method: request.method, path: request.path, body: request.body, parameters: request.parameters.values))
    }
}

let log: @Sendable (String) -> Void = { Log.line(program, $0) }
let gate = WriteGate()
// Each connection's team and key are its own nginx's: a stand-in that starts anew forgets them.
do {
    try StandInState(path: configuration.databasePath).forgetConnections()
} catch {
    fail("cannot open \(configuration.databasePath): \(error)", code: 3)
}
// No exit handler may run while a worker thread still uses a library: see ProcessExit.
ProcessExit.now(
    FastCGIServer.run(
        options,
        startupMessage:
            "APNs stand-in for "
            + configuration.apps.map { "team \($0.teamID), key \($0.keyID), topic \($0.bundleID)" }.joined(separator: "; "),
        // What APNs answers when it is shutting down.
        stoppingResponse: HTTPResponse(
            status: 503, headers: [("Content-Type", "application/json"), ("Retry-After", "5")],
            body: Array(#"{"reason":"Shutdown"}"#.utf8)),
        log: log
    ) { _ in
        StandInHTTPResponder(try StandInResponder(configuration: configuration, gate: gate, log: log))
    })
