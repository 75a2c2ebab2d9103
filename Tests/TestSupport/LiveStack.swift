import Foundation
import LiveActivityDomain
import LiveActivityStore

/// The registration service as it runs for real: `liveactivity-fcgi` on a unix socket in a
/// folder of its own, and nginx from `nginx/local.conf.template` (with the shipped locations)
/// on a free loopback port, against a database of the test's engine. Both are stopped by PID on release.
public final class LiveStack: @unchecked Sendable {
    /// How the responder gets its socket.
    public enum Launcher: Sendable {
        /// `liveactivity-fcgi --socket PATH`.
        case socketFlag
        /// `spawn-fcgi -n -s PATH -- liveactivity-fcgi`: the socket arrives as stdin.
        case spawnFCGI
    }

    public struct Options: Sendable {
        /// The engine the responder stores in (the test's argument, or the one engine it is about).
        public var engine: TestEngine
        /// Extra settings for the responder (SPEC section 6), over `LIVEACTIVITY_DB`.
        public var environment: [String: String] = [:]
        public var workers = 16
        /// nginx's per-client rate (`limit_req_zone ... rate=`); high so tests are not limited.
        public var rate = "100000r/s"
        public var launcher = Launcher.socketFlag
        /// Wait for `GET /wakeup/health` to answer 200 (off for a deliberately broken database).
        public var waitForHealthy = true
        /// More responder arguments (for example `--supervise`).
        public var arguments: [String] = []
        /// Run the responder as `nobody:nogroup` (through `setpriv`), so file permissions apply
        /// to it as they do to the web user on a real host: root ignores them.
        public var unprivileged = false
        /// nginx lines put in the server block before the shipped locations (a location an
        /// operator wrote otherwise, say).
        public var serverLines = ""
        /// Where the responder's stdout and stderr go instead of `responder.log` (`/dev/full`: a
        /// disk with no room for its log).
        public var responderOutput: String?
        public init(engine: TestEngine) { self.engine = engine }
    }

    public let folder: TemporaryDirectory
    public let port: Int
    public let socketPath: String
    /// The responder's database; `LIVEACTIVITY_DB` is its `setting`.
    public let database: TestDatabase
    /// The SQLite file, on that engine (tests of what happens to the file itself).
    public var databasePath: String { database.setting }
    public let responder: ChildProcess
    public let nginx: ChildProcess

    /// The stack with every option at its default, storing in `engine`.
    public convenience init(_ engine: TestEngine, label: String = "live") throws {
        try self.init(Options(engine: engine), label: label)
    }

    public init(_ options: Options, label: String = "live") throws {
        let folder = TemporaryDirectory(label)
        self.folder = folder
        socketPath = folder.file(options.unprivileged ? "run/fcgi.sock" : "fcgi.sock")
        database = try TestDatabase(options.engine, label: label, folder: folder)

        var environment = ["LIVEACTIVITY_DB": database.setting, "PATH": "/usr/bin:/bin"]
        environment.merge(options.environment) { _, new in new }
        var command = [product("liveactivity-fcgi")]
        if options.unprivileged {
            guard let setpriv = systemTool("setpriv") else { throw SocketError("setpriv is not installed") }
            // nobody must reach its socket folder through the test's 0700 one.
            chmod(folder.path, 0o711)
            try FileManager.default.createDirectory(atPath: folder.file("run"), withIntermediateDirectories: false)
            // Its mode said, not left to the umask: the umask is the test process's, and an
            // in-process ListeningSocket narrows it for a moment while it binds (0600 folders
            // left nobody unable to bind its socket here now and then).
            chmod(folder.file("run"), 0o700)
            chown(folder.file("run"), 65534, 65534)
            command = [setpriv, "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"] + command
        }
        switch options.launcher {
        case .socketFlag:
            responder = try ChildProcess(
                command[0],
                Array(command.dropFirst()) + ["--socket", socketPath, "--workers", String(options.workers)] + options.arguments,
                environment: environment, outputPath: options.responderOutput ?? folder.file("responder.log"))
        case .spawnFCGI:
            guard let spawn = systemTool("spawn-fcgi") else { throw SocketError("spawn-fcgi is not installed") }
            responder = try ChildProcess(
                spawn,
                ["-n", "-s", socketPath, "-M", "0600", "--"] + command + ["--workers", String(options.workers)]
                    + options.arguments,
                environment: environment, outputPath: options.responderOutput ?? folder.file("responder.log"))
        }

        let responder = self.responder
        let socketPath = self.socketPath
        // Connectable, not merely present: bind(2) creates the file before listen(2).
        guard waitUntil(timeout: 60, { (try? RawSocket(unixPath: socketPath, timeout: 1)) != nil || !responder.isRunning }),
            responder.isRunning
        else {
            responder.stop()
            throw SocketError("the responder did not start listening: \(responder.output)")
        }

        let prefix = folder.file("nginx")
        let started: (port: Int, process: ChildProcess)
        do {
            let render = try Self.nginxConfiguration(
                prefix: prefix, socketPath: socketPath, workers: options.workers, rate: options.rate,
                serverLines: options.serverLines)
            started = try LoopbackNginx.start(prefix: prefix, outputPath: folder.file("nginx.out"), render: render)
        } catch {
            responder.stop()
            throw error
        }
        port = started.port
        nginx = started.process

        let ready =
            !options.waitForHealthy || waitUntil(timeout: 60) { (try? self.request("GET", "/wakeup/health"))?.status == 200 }
        guard ready else {
            let log = responder.output
            nginx.stop()
            responder.stop()
            throw SocketError("the stack did not become ready; responder said: \(log)")
        }
    }

    /// Prepares nginx's folder `prefix` (the shipped locations in `snippets/`) and returns the
    /// configuration for a port: `nginx/local.conf.template` filled in for `socketPath`.
    public static func nginxConfiguration(
        prefix: String, socketPath: String, workers: Int = 16, rate: String = "100000r/s", serverLines: String = ""
    ) throws -> (Int) -> String {
        try FileManager.default.createDirectory(atPath: prefix + "/snippets", withIntermediateDirectories: true)
        for name in ["liveactivity-locations.conf", "liveactivity-fastcgi.conf"] {
            try? FileManager.default.removeItem(atPath: prefix + "/snippets/" + name)
            try FileManager.default.copyItem(atPath: packageRoot + "/nginx/" + name, toPath: prefix + "/snippets/" + name)
        }
        let template = try String(contentsOfFile: packageRoot + "/nginx/local.conf.template", encoding: .utf8)
        return { port in
            template
                .replacingOccurrences(of: "@PREFIX@", with: prefix)
                .replacingOccurrences(of: "@PORT@", with: String(port))
                .replacingOccurrences(of: "@SOCKET@", with: socketPath)
                .replacingOccurrences(of: "@WORKERS@", with: String(workers))
                .replacingOccurrences(of: "@RATE@", with: rate)
                .replacingOccurrences(
                    of: "include snippets/liveactivity-locations.conf;",
                    with: serverLines + "\n        include snippets/liveactivity-locations.conf;")
        }
    }

    deinit {
        // nginx first, so no request is on its way when the responder drains and exits.
        nginx.stop()
        responder.stop()
    }

    /// Sends one request through nginx. `contentType` nil sends no Content-Type header.
    public func request(
        _ method: String, _ path: String, body: String? = nil, contentType: String? = "application/json",
        from sourceAddress: String? = nil
    ) throws -> HTTPResult {
        try request(
            method, path, bytes: body.map { Array($0.utf8) } ?? [], contentType: body == nil ? nil : contentType,
            from: sourceAddress)
    }

    /// Sends one request with a body of raw bytes through nginx.
    public func request(
        _ method: String, _ path: String, bytes: [UInt8], contentType: String? = "application/json",
        from sourceAddress: String? = nil
    ) throws -> HTTPResult {
        let headers = contentType.map { [("Content-Type", $0)] } ?? []
        return try HTTPClient.request(
            port: port, method: method, path: path, headers: headers, body: bytes, sourceAddress: sourceAddress)
    }

    /// What the responder logged so far.
    public var responderLog: String { responder.output }

    /// nginx's error log so far.
    public var errorLog: String {
        (try? String(contentsOfFile: folder.file("nginx/error.log"), encoding: .utf8)) ?? ""
    }

    /// nginx's access log so far.
    public var accessLog: String {
        (try? String(contentsOfFile: folder.file("nginx/access.log"), encoding: .utf8)) ?? ""
    }
}
