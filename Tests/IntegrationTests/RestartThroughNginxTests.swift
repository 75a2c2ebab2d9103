import Foundation
import LiveActivityStore
import TestSupport
import Testing

/// Restarting the responder under registration load through real nginx costs no request (SPEC 7:
/// requests arriving during a stop are answered, 503 with Retry-After at worst, or left to the
/// next process, never reset; issue 26 point 9). nginx keeps its FastCGI connections open; a
/// POST it sends on one just as the old process exits met a closed connection, which nginx does
/// not send again by default (the request is not idempotent), and answered 502 (503 to the
/// client, from the shipped `error_page`). The access log's last field says who answered each
/// request: the responder (200, or its own 503 while stopping) or nginx for want of it ("502").
@Suite("Restarts through nginx")
struct RestartThroughNginxTests {
    /// `RESTART_ROUNDS` raises the count of restarts per test.
    static let rounds = Int(ProcessInfo.processInfo.environment["RESTART_ROUNDS"] ?? "") ?? 10

    /// The POSTs nginx answered itself because the responder did not: neither a 200 nor the
    /// responder's own 503, by the access log's last field (each try's upstream status).
    static func unanswered(in accessLog: String) -> [String] {
        accessLog.split(separator: "\n").filter { line in
            guard line.contains("\"POST /wakeup ") else { return false }
            let fields = line.split(separator: "\"")
            guard let tries = fields.last, let last = tries.split(separator: ",").last?.trimmingCharacters(in: .whitespaces)
            else { return true }
            return !(line.contains("HTTP/1.1\" 200 ") && last == "200") && last != "503"
        }.map(String.init)
    }

    /// What the run must show: load before and after each restart, no request nginx had to
    /// answer for the responder, and every registration answered 200 stored.
    func expectNothingLost(_ load: RegistrationLoad, accessLog: String, database: TestDatabase, _ name: String) throws {
        let answers = load.answers
        let statuses = Dictionary(grouping: answers, by: \.status).mapValues(\.count)
        print("restarts through nginx, \(name): \(Self.rounds) restarts, answers \(statuses)")
        #expect(load.failures.isEmpty, "\(load.failures.prefix(5))")
        let unanswered = Self.unanswered(in: accessLog)
        #expect(unanswered.isEmpty, "\(unanswered.count) requests answered by nginx for the responder: \(unanswered.prefix(5))")
        #expect(answers.allSatisfy { $0.status == 200 || $0.status == 503 }, "\(statuses)")
        let stored = Set(try database.rows("SELECT push_token FROM push_targets").map { $0[0] ?? "" })
        let lost = answers.filter { $0.status == 200 && !stored.contains($0.token) }
        #expect(lost.isEmpty, "\(lost.count) registrations answered 200 are not stored")
    }

    /// The supervisor (spawn-fcgi's inherited socket, `--supervise`) restarts its child on SIGHUP.
    @Test(arguments: TestEngine.real)
    func sighupToTheSupervisorUnderLoadCostsNoRequest(engine: TestEngine) throws {
        var options = LiveStack.Options(engine: engine)
        options.launcher = .spawnFCGI
        options.arguments = ["--supervise"]
        let stack = try LiveStack(options, label: "restart-sighup")
        let load = RegistrationLoad(port: stack.port)
        for round in 0..<Self.rounds {
            let before = childProcesses(of: stack.responder.pid)
            let answered = load.answers.count
            #expect(waitUntil(timeout: 60) { load.answers.count >= answered + 20 }, "round \(round): no load got through")
            stack.responder.signal(SIGHUP)
            let restarted = waitUntil(timeout: 60) {
                let now = childProcesses(of: stack.responder.pid)
                return !now.isEmpty && now != before && (try? stack.request("GET", "/wakeup/health"))?.status == 200
            }
            #expect(restarted, "round \(round): no new responder answered: \(stack.responderLog.suffix(400))")
        }
        let answered = load.answers.count
        #expect(waitUntil(timeout: 60) { load.answers.count >= answered + 20 }, "no load got through at the end")
        load.stop()
        try expectNothingLost(load, accessLog: stack.accessLog, database: stack.database, "SIGHUP")
    }

    /// systemd's socket unit (or spawn-fcgi) holds the socket; each responder is stopped with
    /// SIGTERM and the next started on the same socket, as `systemctl restart` does.
    @Test(arguments: TestEngine.real)
    func aRestartOnAnInheritedSocketUnderLoadCostsNoRequest(engine: TestEngine) throws {
        let folder = TemporaryDirectory("restart-inherited")
        let socketPath = folder.file("fcgi.sock")
        let listening = try inheritedListeningSocket(at: socketPath)
        defer { close(listening) }
        let stdin = FileHandle(fileDescriptor: listening, closeOnDealloc: false)
        let database = try TestDatabase(engine, label: "restart-inherited", folder: folder)
        let environment = database.programEnvironment.merging(["PATH": "/usr/bin:/bin"]) { _, new in new }
        func responder(_ round: Int) throws -> ChildProcess {
            try ChildProcess(
                product("liveactivity-fcgi"), ["--workers", "16"], environment: environment,
                outputPath: folder.file("responder-\(round).log"), standardInput: stdin)
        }
        let prefix = folder.file("nginx")
        let render = try LiveStack.nginxConfiguration(prefix: prefix, socketPath: socketPath)
        let (port, nginx) = try LoopbackNginx.start(prefix: prefix, outputPath: folder.file("nginx.out"), render: render)
        defer { nginx.stop() }
        func healthy() -> Bool {
            (try? HTTPClient.request(port: port, method: "GET", path: "/wakeup/health"))?.status == 200
        }
        var current = try responder(0)
        #expect(waitUntil(timeout: 60, healthy), "the first responder never answered: \(current.output)")
        let load = RegistrationLoad(port: port)
        for round in 1...Self.rounds {
            let answered = load.answers.count
            #expect(waitUntil(timeout: 60) { load.answers.count >= answered + 20 }, "round \(round): no load got through")
            #expect(current.stop() == .exited(0), "round \(round): \(current.output.suffix(400))")
            current = try responder(round)
            #expect(waitUntil(timeout: 60, healthy), "round \(round): the next responder never answered: \(current.output)")
        }
        let answered = load.answers.count
        #expect(waitUntil(timeout: 60) { load.answers.count >= answered + 20 }, "no load got through at the end")
        load.stop()
        let accessLog = (try? String(contentsOfFile: prefix + "/access.log", encoding: .utf8)) ?? ""
        try expectNothingLost(load, accessLog: accessLog, database: database, "inherited socket")
        #expect(current.stop() == .exited(0))
    }

    /// A listening unix socket made here, as spawn-fcgi or systemd makes it.
    func inheritedListeningSocket(at path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8))
            raw[path.utf8.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(descriptor, 1024) == 0 else { throw SocketError("bind/listen \(path) failed") }
        return descriptor
    }
}
