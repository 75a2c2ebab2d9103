import Foundation
import LiveActivityDomain
import LiveActivityStore
import TestSupport
import Testing

/// The executable's command line, sockets and signals (SPEC section 2).
@Suite("Responder process")
struct ResponderProcessTests {
    let binary = product("liveactivity-fcgi")

    /// Starts the responder with `arguments` and waits until `socketPath` exists.
    func start(_ arguments: [String], in folder: TemporaryDirectory, socketPath: String? = nil) throws -> ChildProcess {
        let process = try ChildProcess(
            binary, arguments, environment: ["LIVEACTIVITY_DB": folder.file("db.sqlite")],
            outputPath: folder.file("responder.log"))
        if let socketPath {
            #expect(waitUntil(timeout: 60) { (try? RawSocket(unixPath: socketPath, timeout: 1)) != nil }, "\(process.output)")
        }
        return process
    }

    func health(over socket: RawSocket) throws -> HTTPResult {
        // As nginx's monitoring location passes it: health answers the host alone (SPEC 3).
        try FastCGIClient.request(
            over: socket, parameters: ["REQUEST_METHOD": "GET", "DOCUMENT_URI": "/wakeup/health", "REMOTE_ADDR": "127.0.0.1"])
    }

    @Test func helpExplainsTheFlagsAndExitsZero() throws {
        let run = try runCommand(binary, ["--help"], environment: [:])
        #expect(run.status == 0)
        #expect(run.stdout.contains("--socket"))
        #expect(run.stdout.contains("--workers"))
    }

    @Test(arguments: [
        ["--workers", "0"], ["--workers"], ["--socket-mode", "999", "--socket", "/tmp/x"], ["--frobnicate"],
        ["--socket", "0.0.0.0:9000"], ["--socket", "*:9000"],
    ])
    func aBadCommandLineIsOneLineAndExitTwo(_ arguments: [String]) throws {
        let run = try runCommand(binary, arguments, environment: [:])
        #expect(run.status == 2)
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    }

    @Test func aMalformedSettingIsOneLineNamingItAndExitTwo() throws {
        let run = try runCommand(
            binary, ["--socket", "/tmp/never.sock"], environment: ["LIVEACTIVITY_MAX_REGISTRATIONS": "lots"])
        #expect(run.status == 2)
        #expect(
            run.stderr.hasSuffix(
                "Z liveactivity-fcgi: configuration: LIVEACTIVITY_MAX_REGISTRATIONS is malformed (expected a whole number from 1 to 100000000)\n"
            )
        )
    }

    @Test func aDefaultEnvironmentThatIsNotEnabledIsAConfigurationError() throws {
        let run = try runCommand(
            binary, ["--socket", "/tmp/never.sock"],
            environment: ["APNS_ENVIRONMENTS": "production", "APNS_ENVIRONMENT": "sandbox"])
        #expect(run.status == 2)
        #expect(
            run.stderr.hasSuffix(
                "Z liveactivity-fcgi: configuration: APNS_ENVIRONMENT is malformed (expected an environment APNS_ENVIRONMENTS enables (production))\n"
            ) && run.stderr.split(separator: "\n").count == 1
        )
    }

    @Test func withoutSocketOrCGIEnvironmentItRefusesToGuess() throws {
        let run = try runCommand(binary, [], environment: [:])
        #expect(run.status == 2)
        #expect(run.stderr.contains("GATEWAY_INTERFACE"))
    }

    @Test func itLogsOneStartupLineAndMakesTheSocketGroupWritable() throws {
        let folder = TemporaryDirectory("startup")
        let socketPath = folder.file("fcgi.sock")
        let process = try start(["--socket", socketPath, "--workers", "2"], in: folder, socketPath: socketPath)
        let mode = try FileManager.default.attributesOfItem(atPath: socketPath)[.posixPermissions] as? Int
        #expect(mode == 0o660)
        #expect(try health(over: RawSocket(unixPath: socketPath)).status == 200)
        let lines = process.output.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.contains("database \(folder.file("db.sqlite"))") == true)
        #expect(lines.first?.contains("2 workers") == true)
        #expect(!process.output.lowercased().contains("apns_key"))
    }

    @Test func theSocketModeIsConfigurable() throws {
        let folder = TemporaryDirectory("mode")
        let socketPath = folder.file("fcgi.sock")
        let process = try start(["--socket", socketPath, "--socket-mode", "0666"], in: folder, socketPath: socketPath)
        let mode = try FileManager.default.attributesOfItem(atPath: socketPath)[.posixPermissions] as? Int
        #expect(mode == 0o666)
        #expect(process.isRunning)
    }

    @Test func itServesALoopbackTCPSocket() throws {
        let folder = TemporaryDirectory("tcp")
        let port = freePort()
        let process = try start(["--socket", "127.0.0.1:\(port)"], in: folder)
        #expect(waitUntil { (try? RawSocket(port: port, timeout: 1)) != nil }, "\(process.output)")
        let result = try FastCGIClient.request(
            over: RawSocket(port: port),
            parameters: ["REQUEST_METHOD": "POST", "DOCUMENT_URI": "/prod/wakeup", "CONTENT_TYPE": "application/json"],
            body: Array(registerBody(testToken(400)).utf8))
        #expect(result.status == 200)
        #expect(
            try TestDatabase(sqliteFile: folder.file("db.sqlite")).registration(PushToken(validating: testToken(400)))?
                .environment
                == .production)
    }

    /// `--socket :PORT` binds 127.0.0.1 (SPEC 7), as the kernel's own table of listening sockets
    /// shows: libfcgi alone would bind every interface (0.0.0.0) for an empty host.
    @Test func aPortWithoutAHostListensOnLoopbackOnly() throws {
        let folder = TemporaryDirectory("tcp-loopback")
        let port = freePort()
        let process = try start(["--socket", ":\(port)"], in: folder)
        // The line follows the bind, so once it is logged the kernel's table has the socket.
        #expect(
            waitUntil(timeout: 60) { process.output.contains("serving FastCGI on 127.0.0.1:\(port)") }, "\(process.output)")
        #expect((try? RawSocket(port: port, timeout: 5)) != nil, "\(process.output)")
        // The kernel's table of listening sockets, filtered in the kernel to this port (`ss`, over
        // sock_diag): /proc/net/tcp is written a page per read and a read that starts after a row
        // taken away skips one, so while other tests opened and closed sockets it once showed
        // none; the filtered answer holds the port's rows alone, in one message.
        let table = try runCommand("/usr/bin/ss", ["-Hltn", "sport = :\(port)"])
        #expect(table.status == 0, "\(table.stderr)")
        // State, Recv-Q, Send-Q, local address, peer address.
        let listening = table.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            .filter { $0.count > 3 }.map { $0[3] }
        #expect(listening == ["127.0.0.1:\(port)"], "\(table.stdout)")
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aStopSignalEndsItCleanlyAndRemovesTheSocket(_ signal: Int32) throws {
        let folder = TemporaryDirectory("signal")
        let socketPath = folder.file("fcgi.sock")
        let process = try start(["--socket", socketPath], in: folder, socketPath: socketPath)
        // A connection that stays open must not hold the exit up.
        let idle = try RawSocket(unixPath: socketPath)
        #expect(try health(over: RawSocket(unixPath: socketPath)).status == 200)

        process.signal(signal)
        #expect(process.waitForExit(timeout: 30) == .exited(0))
        #expect(!FileManager.default.fileExists(atPath: socketPath))
        #expect(process.output.contains("stopped on signal"))
        _ = idle
    }

    /// A successor bound the same path (libfcgi unlinks and rebinds): the first one's stop must
    /// leave the successor's socket file where nginx finds it.
    @Test func stoppingLeavesASuccessorsSocketInPlace() throws {
        let folder = TemporaryDirectory("successor")
        let socketPath = folder.file("fcgi.sock")
        let first = try start(["--socket", socketPath], in: folder, socketPath: socketPath)
        let successorFolder = TemporaryDirectory("successor-next")
        let successor = try ChildProcess(
            binary, ["--socket", socketPath], environment: ["LIVEACTIVITY_DB": successorFolder.file("db.sqlite")],
            outputPath: successorFolder.file("responder.log"))
        #expect(waitUntil(timeout: 60) { successor.output.contains("serving FastCGI") }, "\(successor.output)")
        #expect(try health(over: RawSocket(unixPath: socketPath)).status == 200)

        #expect(first.stop() == .exited(0))
        #expect(FileManager.default.fileExists(atPath: socketPath))
        #expect(try health(over: RawSocket(unixPath: socketPath)).status == 200)

        #expect(successor.stop() == .exited(0))
        #expect(!FileManager.default.fileExists(atPath: socketPath))
    }

    @Test(arguments: TestEngine.real)
    func spawnFCGICanStartItWithTheSocketOnStdin(engine: TestEngine) throws {
        var options = LiveStack.Options(engine: engine)
        options.launcher = .spawnFCGI
        options.workers = 2
        let stack = try LiveStack(options, label: "spawn")
        #expect(try stack.request("POST", "/wakeup", body: registerBody(testToken(410))).status == 200)
        #expect(try storedRegistration(testToken(410), in: stack) != nil)
        #expect(stack.responderLog.contains("serving FastCGI on the inherited socket on stdin with 2 workers"))
    }

    @Test(arguments: TestEngine.real)
    func workersAnswerConcurrentClients(engine: TestEngine) throws {
        let stack = try LiveStack(with(engine, [:], workers: 4))
        let statuses = LockedBox([Int]())
        let ended = TestThreads.run(4) { index in
            for round in 0..<10 {
                let status =
                    (try? stack.request("POST", "/wakeup", body: registerBody(testToken(500 + index * 10 + round))))?.status ?? -1
                statuses.update { $0.append(status) }
            }
        }
        #expect(ended, "a client never got its answers")
        // Four clients, four workers: nobody is turned away, every write landed.
        #expect(statuses.get().filter { $0 == 200 }.count == 40, "\(statuses.get())")
        #expect(try stack.database.count() == 40)
    }
}
