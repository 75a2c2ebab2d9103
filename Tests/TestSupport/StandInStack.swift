import APNsStandIn
import Foundation
import LiveActivityDomain

/// The local APNs stand-in as the sweep meets it: nginx terminating TLS + HTTP/2 on a free
/// loopback port with a self-signed certificate made for the test, in front of
/// `liveactivity-apns-standin` on a unix socket. Both are stopped by PID on release.
///
/// The one fake APNs of the tests: answers are scripted per token (`state().script`), every push
/// is recorded with the connection it came on (`state().arrivals()`), and a long scripted delay
/// is a push that is not answered in time.
public final class StandInStack: @unchecked Sendable {
    public let folder: TemporaryDirectory
    public let key: TestKey
    public let port: Int
    public let certificatePath: String
    public let databasePath: String
    public let responder: ChildProcess
    public var nginx: ChildProcess
    private let nginxPrefix: String
    /// The second the stack's provider tokens are issued from (`providerToken`), fixed at the first.
    let tokenEpoch = LockedBox<Int64?>(nil)

    /// `https://127.0.0.1:PORT`, for `APNS_HOST` (pushes connect here and still name Apple's hosts).
    public var baseURL: String { "https://127.0.0.1:\(port)" }

    /// Starts the stand-in. `environment` adds settings (for example `LIVEACTIVITY_TEST_CLOCK_OFFSET`);
    /// `workers` is how many pushes it answers at once (a delayed answer holds one);
    /// `maxConcurrentStreams` replaces the shipped `http2_max_concurrent_streams`; the template's
    /// fault knobs: `goawayAfter` makes nginx end each connection with GOAWAY after that many
    /// streams, `resetAfterAnswer` has nginx answer 200 itself and then reset the stream (the
    /// stand-in is not asked: `nginxAnswered()` lists those pushes), `pace` lets that many pushes a
    /// second through (a slow APNs); `http2: false` serves HTTP/1.1 only, which no APNs does.
    /// `keyEnvironments` restricts the key (403 BadEnvironmentKeyInToken elsewhere).
    public init(
        key: TestKey? = nil, environment: [String: String] = [:], workers: Int = 4, maxConcurrentStreams: Int? = nil,
        goawayAfter: Int? = nil, resetAfterAnswer: Bool = false, pace: Int? = nil, http2: Bool = true,
        keyEnvironments: [APNsEnvironment]? = nil, label: String = "standin"
    ) throws {
        let folder = TemporaryDirectory(label)
        self.folder = folder
        self.key = try key ?? TestKey(in: folder)
        databasePath = folder.file("standin.sqlite")
        let certificate = try TestCertificate(in: folder)
        certificatePath = certificate.certificatePath
        let socketPath = folder.file("standin.sock")

        var settings = [
            "APNS_KEY_ID": self.key.keyID, "APNS_TEAM_ID": self.key.teamID, "APNS_BUNDLE_ID": self.key.bundleID,
            "APNS_KEY_PATH": self.key.privateKeyPath, "STANDIN_DB": databasePath, "PATH": "/usr/bin:/bin",
        ]
        if let keyEnvironments {
            settings["STANDIN_KEY_ENVIRONMENTS"] = keyEnvironments.map(\.rawValue).joined(separator: ",")
        }
        settings.merge(environment) { _, new in new }
        // The client keeps hundreds of streams in flight, as APNs allows: nginx hands each to the
        // workers through the socket's backlog, and answers 502 for any it cannot queue there.
        let responder = try ChildProcess(
            product("liveactivity-apns-standin"),
            ["--socket", socketPath, "--workers", String(workers), "--backlog", "1024"],
            environment: settings, outputPath: folder.file("standin.log"))
        self.responder = responder
        guard waitUntil(timeout: 60, { FileManager.default.fileExists(atPath: socketPath) || !responder.isRunning }),
            responder.isRunning
        else { throw SocketError("the stand-in did not start: \(responder.output)") }

        let prefix = folder.file("nginx")
        self.nginxPrefix = prefix
        let render = try Self.nginxConfiguration(
            prefix: prefix, socketPath: socketPath, certificate: certificate, maxConcurrentStreams: maxConcurrentStreams,
            goawayAfter: goawayAfter, resetAfterAnswer: resetAfterAnswer, pace: pace, http2: http2)
        let started = try LoopbackNginx.start(prefix: prefix, outputPath: folder.file("nginx.out"), render: render)
        (port, nginx) = started
    }

    deinit {
        nginx.stop()
        responder.stop()
    }

    /// Prepares nginx's folder `prefix` and returns the configuration for a port:
    /// `nginx/apns-standin.conf.template` filled in, as one foreground process (the knobs as in `init`).
    public static func nginxConfiguration(
        prefix: String, socketPath: String, certificate: TestCertificate, maxConcurrentStreams: Int? = nil,
        goawayAfter: Int? = nil, resetAfterAnswer: Bool = false, pace: Int? = nil, http2: Bool = true
    ) throws -> (Int) -> String {
        for sub in ["", "/tmp"] {
            try FileManager.default.createDirectory(atPath: prefix + sub, withIntermediateDirectories: true)
        }
        var template = try String(contentsOfFile: packageRoot + "/nginx/apns-standin.conf.template", encoding: .utf8)
        func replace(_ shipped: String, with replacement: String) throws {
            guard template.contains(shipped) else { throw SocketError("the stand-in's template no longer says \(shipped)") }
            template = template.replacingOccurrences(of: shipped, with: replacement)
        }
        if let maxConcurrentStreams {
            try replace("http2_max_concurrent_streams 1000;", with: "http2_max_concurrent_streams \(maxConcurrentStreams);")
        }
        if !http2 { try replace("ssl http2;", with: "ssl;") }
        template =
            template
            .replacingOccurrences(of: "@GOAWAY_AFTER@", with: String(goawayAfter ?? 10_000_000))
            .replacingOccurrences(of: "@RESET_AFTER_ANSWER@", with: resetAfterAnswer ? "1" : "0")
            .replacingOccurrences(of: "@PACE@", with: pace.map { "\($0)r/s" } ?? "1000000r/s")
        return { [template] port in
            "daemon off;\nmaster_process off;\n"
                + template
                .replacingOccurrences(of: "@PREFIX@", with: prefix)
                .replacingOccurrences(of: "@PORT@", with: String(port))
                .replacingOccurrences(of: "@SOCKET@", with: socketPath)
                .replacingOccurrences(of: "@CERT@", with: certificate.certificatePath)
                .replacingOccurrences(of: "@CERT_KEY@", with: certificate.keyPath)
        }
    }

    /// The stand-in's record and script (a connection of the test's own).
    public func state() throws -> StandInState { try StandInState(path: databasePath) }

    /// Settings that point a sweep at this stand-in with its key.
    public func sweepEnvironment(database: String) -> [String: String] {
        var environment = [
            "LIVEACTIVITY_DB": database, "APNS_KEY_ID": key.keyID, "APNS_TEAM_ID": key.teamID,
            "APNS_BUNDLE_ID": key.bundleID, "APNS_KEY_PATH": key.privateKeyPath, "APNS_HOST": baseURL,
            "APNS_CA_FILE": certificatePath, "PATH": "/usr/bin:/bin",
        ]
        // A sweep folder of its own for a database that is no file (PostgreSQL): the default,
        // `./var/liveactivity.sweep`, is relative to wherever the test runs.
        if !database.hasPrefix("/") { environment["LIVEACTIVITY_SWEEP_DIR"] = folder.file("sweep") }
        return environment
    }

    /// What the stand-in logged.
    public var log: String { responder.output }

    /// The pushes nginx answered itself (`resetAfterAnswer`): the host each named, its path and status.
    public func nginxAnswered() throws -> [(host: String, path: String, status: Int)] {
        let path = nginxPrefix + "/pushes.log"
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 4, let status = Int(fields[3]) else { return nil }
            return (String(fields[1]), String(fields[2]), status)
        }
    }
}
