import APNsStandIn
import Foundation
import LiveActivityCore

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

    /// `https://127.0.0.1:PORT`, for `APNS_HOST`.
    public var baseURL: String { "https://127.0.0.1:\(port)" }

    /// Starts the stand-in. `environment` adds settings (for example `LIVEACTIVITY_TEST_CLOCK_OFFSET`);
    /// `workers` is how many pushes it answers at once (a delayed answer holds one);
    /// `maxConcurrentStreams` replaces the shipped `http2_max_concurrent_streams`.
    public init(
        key: TestKey? = nil, environment: [String: String] = [:], workers: Int = 4, maxConcurrentStreams: Int? = nil,
        label: String = "standin"
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
        settings.merge(environment) { _, new in new }
        let responder = try ChildProcess(
            product("liveactivity-apns-standin"), ["--socket", socketPath, "--workers", String(workers)],
            environment: settings, outputPath: folder.file("standin.log"))
        self.responder = responder
        guard waitUntil(timeout: 10, { FileManager.default.fileExists(atPath: socketPath) || !responder.isRunning }),
            responder.isRunning
        else { throw SocketError("the stand-in did not start: \(responder.output)") }

        let prefix = folder.file("nginx")
        for sub in ["", "/tmp"] {
            try FileManager.default.createDirectory(atPath: prefix + sub, withIntermediateDirectories: true)
        }
        var template = try String(contentsOfFile: packageRoot + "/nginx/apns-standin.conf.template", encoding: .utf8)
        if let maxConcurrentStreams {
            let shipped = "http2_max_concurrent_streams 1000;"
            guard template.contains(shipped) else { throw SocketError("the stand-in's template no longer says \(shipped)") }
            template = template.replacingOccurrences(of: shipped, with: "http2_max_concurrent_streams \(maxConcurrentStreams);")
        }
        let started = try LoopbackNginx.start(prefix: prefix, outputPath: folder.file("nginx.out")) { [template] candidate in
            "daemon off;\nmaster_process off;\n"
                + template
                .replacingOccurrences(of: "@PREFIX@", with: prefix)
                .replacingOccurrences(of: "@PORT@", with: String(candidate))
                .replacingOccurrences(of: "@SOCKET@", with: socketPath)
                .replacingOccurrences(of: "@CERT@", with: certificate.certificatePath)
                .replacingOccurrences(of: "@CERT_KEY@", with: certificate.keyPath)
        }
        (port, nginx) = started
    }

    deinit {
        nginx.stop()
        responder.stop()
    }

    /// The stand-in's record and script (a connection of the test's own).
    public func state() throws -> StandInState { try StandInState(path: databasePath) }

    /// Settings that point a sweep at this stand-in with its key.
    public func sweepEnvironment(database: String) -> [String: String] {
        [
            "LIVEACTIVITY_DB": database, "APNS_KEY_ID": key.keyID, "APNS_TEAM_ID": key.teamID,
            "APNS_BUNDLE_ID": key.bundleID, "APNS_KEY_PATH": key.privateKeyPath, "APNS_HOST": baseURL,
            "APNS_CA_FILE": certificatePath, "PATH": "/usr/bin:/bin",
        ]
    }

    /// What the stand-in logged.
    public var log: String { responder.output }
}
