import APNsJWT
import Foundation
import LiveActivityDomain
import TestSupport
import Testing

/// SPEC 7: every serving program exits 0 on SIGTERM or SIGINT, whatever it was doing - here in
/// the middle of a stream of requests, each stop started afresh - and every request a client
/// sends to its socket meanwhile is answered (200, or 503 with Retry-After) or refused at
/// connect, never cut off (a reset, or a close before FCGI_END_REQUEST). `STOP_STORM_ROUNDS` raises the
/// count (`scripts/stop-storm` runs 200 of each); the suite runs 20. `STOP_STORM_PRODUCTS` names
/// another build's products folder, to measure that build's programs the same way.
@Suite("Stops under load")
struct StopUnderLoadTests {
    enum Program: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case responder = "liveactivity-fcgi"
        case standIn = "liveactivity-apns-standin"
        var testDescription: String { rawValue }
    }

    static let rounds = Int(ProcessInfo.processInfo.environment["STOP_STORM_ROUNDS"] ?? "") ?? 20
    static let products = ProcessInfo.processInfo.environment["STOP_STORM_PRODUCTS"] ?? productsDirectory

    @Test(arguments: Program.allCases)
    func everySigtermUnderLoadExitsZero(_ program: Program) throws {
        let bench = try StopBench(program)
        var ends: [ProcessEnd: Int] = [:]
        var load = LoadCounts()
        var roundsCuttingOff = 0
        for round in 0..<Self.rounds {
            let (end, counts) = try bench.stopUnderLoad(signal: SIGTERM, round: round)
            ends[end, default: 0] += 1
            load.add(counts)
            if counts.cutOff > 0 { roundsCuttingOff += 1 }
        }
        let summary = ends.sorted { $0.value > $1.value }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        print(
            "stop storm: \(program.rawValue): \(Self.rounds) SIGTERMs under load: \(summary); "
                + "\(roundsCuttingOff) stops cut a request off; \(load)")
        #expect(ends[.exited(0)] == Self.rounds, "\(summary)")
        #expect(load.cutOff == 0 && load.wronglyAnswered == 0 && load.failedToConnect == 0, "\(load)")
    }

    /// The same over a TCP socket of its own, where a stop must not shut the socket down (that
    /// resets the connections queued in its backlog).
    @Test func overTCPEverySigtermUnderLoadLeavesNoRequestCutOff() throws {
        let bench = try StopBench(.responder, overTCP: true)
        var load = LoadCounts()
        for round in 0..<Self.rounds {
            let (end, counts) = try bench.stopUnderLoad(signal: SIGTERM, round: round)
            #expect(end == .exited(0), "round \(round)")
            load.add(counts)
        }
        print("stop storm: \(StopUnderLoadTests.Program.responder.rawValue) over TCP: \(Self.rounds) SIGTERMs: \(load)")
        #expect(load.cutOff == 0 && load.wronglyAnswered == 0 && load.failedToConnect == 0, "\(load)")
    }

    /// What a client of nginx sees while the responder stops and after: an answer every time,
    /// 503 with Retry-After at worst (nginx's answer once the socket is gone), never a reset.
    @Test func throughNginxEveryRequestDuringAStopIsAnswered() throws {
        let stack = try LiveStack(.sqlite, label: "stop-nginx")
        let results = LockedBox<[Int: Int]>([:])
        let failures = LockedBox<[String]>([])
        let running = LockedBox(true)
        let clients = TestThreads()
        for client in 0..<4 {
            clients.start {
                var seed = 0
                while running.get() {
                    seed += 1
                    do {
                        let result = try stack.request("POST", "/wakeup", body: registerBody(testToken(client * 100_000 + seed)))
                        results.update { $0[result.status, default: 0] += 1 }
                        if result.status != 200 && !(result.status == 503 && result.header("Retry-After") != nil) {
                            failures.update { $0.append("\(result.status) \(result.text)") }
                        }
                    } catch {
                        failures.update { $0.append("\(error)") }
                    }
                }
            }
        }
        #expect(waitUntil(timeout: 60) { results.get()[200, default: 0] >= 50 }, "no load got through")
        #expect(stack.responder.stop(timeout: 30) == .exited(0))
        // Go on a little while nothing serves: nginx answers for it.
        #expect(waitUntil(timeout: 60) { results.get()[503, default: 0] >= 20 }, "\(results.get())")
        running.set(false)
        #expect(clients.wait(timeout: .seconds(60)), "the clients did not finish")
        #expect(failures.get().isEmpty, "\(failures.get().prefix(5)) of \(results.get())")
    }

    @Test(arguments: Program.allCases)
    func aSigintUnderLoadExitsZero(_ program: Program) throws {
        let bench = try StopBench(program)
        let (end, _) = try bench.stopUnderLoad(signal: SIGINT, round: 0)
        #expect(end == .exited(0))
    }
}

/// What the clients saw while the program ran and stopped.
struct LoadCounts: CustomStringConvertible {
    var answered = 0
    /// Of those answered: 503 with Retry-After (the stopping answer).
    var unavailable = 0
    var refused = 0
    var cutOff = 0
    /// Answered, but neither 200 nor 503 with Retry-After.
    var wronglyAnswered = 0
    /// A connect that failed other than by a refusal (ECONNREFUSED, or ENOENT once the file is gone).
    var failedToConnect = 0
    /// The first few failures, to say what went wrong.
    var examples: [String] = []

    mutating func add(_ other: LoadCounts) {
        answered += other.answered
        unavailable += other.unavailable
        refused += other.refused
        cutOff += other.cutOff
        wronglyAnswered += other.wronglyAnswered
        failedToConnect += other.failedToConnect
        examples += other.examples.prefix(max(0, 5 - examples.count))
    }

    mutating func note(_ failure: String) { if examples.count < 5 { examples.append(failure) } }

    var description: String {
        "requests answered \(answered) (\(unavailable) of them 503 with Retry-After), refused at connect \(refused), "
            + "cut off after connecting \(cutOff), answered otherwise \(wronglyAnswered), failed to connect "
            + "\(failedToConnect)" + (examples.isEmpty ? "" : "; first failures: \(examples)")
    }
}

/// One program's folder, settings and load: `--socket PATH --workers 32`, 48 clients speaking
/// FastCGI straight to that socket (more than the workers, so connections wait in the backlog
/// when the stop comes), sending requests that use its libraries (SQLite for the responder;
/// SQLite and an ES256 check in libcrypto for the stand-in).
struct StopBench {
    let program: StopUnderLoadTests.Program
    let folder: TemporaryDirectory
    let environment: [String: String]
    let parameters: [String: String]
    let body: [UInt8]
    /// `--socket 127.0.0.1:PORT` instead of a unix socket's path.
    let tcpPort: Int?

    init(_ program: StopUnderLoadTests.Program, overTCP: Bool = false) throws {
        self.program = program
        folder = TemporaryDirectory("stops")
        tcpPort = overTCP ? freePort() : nil
        switch program {
        case .responder:
            environment = ["LIVEACTIVITY_DB": folder.file("db.sqlite"), "PATH": "/usr/bin:/bin"]
            // A client of the socket on this host, saying so: health answers the host alone.
            parameters = ["REQUEST_METHOD": "GET", "DOCUMENT_URI": "/wakeup/health", "REMOTE_ADDR": "127.0.0.1"]
            body = []
        case .standIn:
            let key = try TestKey(in: folder)
            environment = [
                "APNS_KEY_ID": key.keyID, "APNS_TEAM_ID": key.teamID, "APNS_BUNDLE_ID": key.bundleID,
                "APNS_KEY_PATH": key.privateKeyPath, "STANDIN_DB": folder.file("standin.sqlite"), "PATH": "/usr/bin:/bin",
            ]
            let now = Clock().now() / 1000
            let jwt = try ProviderToken(
                keyID: key.keyID, teamID: key.teamID, issuedAt: now, signer: ES256Signer(path: key.privateKeyPath)
            ).jwt
            parameters = [
                "REQUEST_METHOD": "POST", "DOCUMENT_URI": "/3/device/" + sampleToken(7), "SERVER_PROTOCOL": "HTTP/2.0",
                "HTTP_AUTHORIZATION": "bearer " + jwt, "HTTP_APNS_TOPIC": key.bundleID, "HTTP_APNS_PUSH_TYPE": "background",
                "HTTP_APNS_PRIORITY": "5", "HTTP_APNS_EXPIRATION": String(now + 3600), "CONTENT_TYPE": "application/json",
            ]
            body = Array(#"{"aps":{"content-available":1},"liveActivityWakeup":true}"#.utf8)
        }
    }

    /// Starts the program, lets 20 requests through, sends `signal` while the clients keep
    /// sending, and returns how it ended with what the clients saw.
    func stopUnderLoad(signal: Int32, round: Int) throws -> (ProcessEnd, LoadCounts) {
        let socketPath = folder.file("serve.sock")
        let address = tcpPort.map { "127.0.0.1:\($0)" } ?? socketPath
        // A stopped TCP socket drops new handshakes, so a connect waits for the SYN's retry
        // (1 s, 3 s, ...) and then meets the refusal; a request queued in the backlog waits for
        // the drain (10 s of grace at most): bounds above the stop's own, also on a loaded machine.
        let connect: @Sendable (TimeInterval) throws -> RawSocket = { [tcpPort] timeout in
            if let tcpPort { return try RawSocket(port: tcpPort, timeout: timeout) }
            return try RawSocket(unixPath: socketPath, timeout: timeout)
        }
        let process = try ChildProcess(
            StopUnderLoadTests.products + "/" + program.rawValue, ["--socket", address, "--workers", "32"],
            environment: environment, outputPath: folder.file("\(program.rawValue).log"))
        guard waitUntil(timeout: 60, { (try? connect(1)) != nil || !process.isRunning })
        else {
            throw SocketError("\(program.rawValue) did not start listening: \(process.output.suffix(1000))")
        }
        let counts = LockedBox(LoadCounts())
        let running = LockedBox(true)
        let clients = TestThreads()
        let refusals = [ECONNREFUSED, ENOENT].map { String(cString: strerror($0)) }
        for _ in 0..<48 {
            clients.start { [parameters, body] in
                while running.get() {
                    let socket: RawSocket
                    do {
                        socket = try connect(30)
                    } catch {
                        let refused = refusals.contains { "\(error)".hasSuffix($0) }
                        counts.update {
                            if refused { $0.refused += 1 } else { $0.failedToConnect += 1 }
                            if !refused { $0.note("\(error)") }
                        }
                        // The program has stopped listening: nothing more to send.
                        return
                    }
                    do {
                        let result = try FastCGIClient.request(over: socket, parameters: parameters, body: body)
                        let stopping = result.status == 503 && result.header("Retry-After") != nil
                        counts.update {
                            $0.answered += 1
                            if stopping { $0.unavailable += 1 }
                            if result.status != 200 && !stopping {
                                $0.wronglyAnswered += 1
                                $0.note("\(result.status) \(result.text.prefix(200))")
                            }
                        }
                    } catch {
                        counts.update {
                            $0.cutOff += 1
                            $0.note("\(error)")
                        }
                    }
                }
            }
        }
        #expect(waitUntil(timeout: 60) { counts.get().answered >= 20 }, "round \(round): no load got through")
        let end: ProcessEnd
        if signal == SIGTERM {
            end = process.stop(timeout: 30)
        } else {
            process.signal(signal)
            end = process.waitForExit(timeout: 30) ?? process.stop()
        }
        running.set(false)
        // Each client's socket has a timeout of 30 s, so they all return within twice that.
        #expect(clients.wait(timeout: .seconds(90)), "the clients did not finish")
        if end != .exited(0) { print("round \(round): \(program.rawValue) \(end): \(process.output.suffix(2000))") }
        return (end, counts.get())
    }
}
