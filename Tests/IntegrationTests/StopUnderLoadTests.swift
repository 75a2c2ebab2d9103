import APNsJWT
import Foundation
import LiveActivityDomain
import TestSupport
import Testing

/// SPEC 7: every serving program exits 0 on SIGTERM or SIGINT, whatever it was doing - here in
/// the middle of a stream of requests, each stop started afresh. `STOP_STORM_ROUNDS` raises the
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
        for round in 0..<Self.rounds {
            let (end, counts) = try bench.stopUnderLoad(signal: SIGTERM, round: round)
            ends[end, default: 0] += 1
            load.add(counts)
        }
        let summary = ends.sorted { $0.value > $1.value }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        print("stop storm: \(program.rawValue): \(Self.rounds) SIGTERMs under load: \(summary); \(load)")
        #expect(ends[.exited(0)] == Self.rounds, "\(summary)")
    }

    /// What a client of nginx sees while the responder stops and after: an answer every time,
    /// 503 with Retry-After at worst (nginx's answer once the socket is gone), never a reset.
    @Test func throughNginxEveryRequestDuringAStopIsAnswered() throws {
        let stack = try LiveStack(label: "stop-nginx")
        let results = LockedBox<[Int: Int]>([:])
        let failures = LockedBox<[String]>([])
        let running = LockedBox(true)
        let clients = DispatchGroup()
        for client in 0..<4 {
            clients.enter()
            Thread.detachNewThread {
                defer { clients.leave() }
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
        #expect(clients.wait(timeout: .now() + 60) == .success, "the clients did not finish")
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
    var refused = 0
    var cutOff = 0

    mutating func add(_ other: LoadCounts) {
        answered += other.answered
        refused += other.refused
        cutOff += other.cutOff
    }

    var description: String {
        "requests answered \(answered), refused at connect \(refused), cut off after connecting \(cutOff)"
    }
}

/// One program's folder, settings and load: `--socket PATH --workers 32`, four clients sending
/// requests that use its libraries (SQLite for the responder; SQLite and an ES256 check in
/// libcrypto for the stand-in).
struct StopBench {
    let program: StopUnderLoadTests.Program
    let folder: TemporaryDirectory
    let environment: [String: String]
    let parameters: [String: String]
    let body: [UInt8]

    init(_ program: StopUnderLoadTests.Program) throws {
        self.program = program
        folder = TemporaryDirectory("stops")
        switch program {
        case .responder:
            environment = ["LIVEACTIVITY_DB": folder.file("db.sqlite"), "PATH": "/usr/bin:/bin"]
            parameters = ["REQUEST_METHOD": "GET", "DOCUMENT_URI": "/wakeup/health"]
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
        let process = try ChildProcess(
            StopUnderLoadTests.products + "/" + program.rawValue, ["--socket", socketPath, "--workers", "32"],
            environment: environment, outputPath: folder.file("\(program.rawValue).log"))
        guard waitUntil(timeout: 30, { (try? RawSocket(unixPath: socketPath, timeout: 1)) != nil || !process.isRunning })
        else {
            throw SocketError("\(program.rawValue) did not start listening: \(process.output.suffix(1000))")
        }
        let counts = LockedBox(LoadCounts())
        let running = LockedBox(true)
        let clients = DispatchGroup()
        for _ in 0..<4 {
            clients.enter()
            Thread.detachNewThread { [parameters, body] in
                defer { clients.leave() }
                while running.get() {
                    guard let socket = try? RawSocket(unixPath: socketPath, timeout: 5) else {
                        counts.update { $0.refused += 1 }
                        // Refused: the program has stopped listening; nothing more to send.
                        return
                    }
                    if (try? FastCGIClient.request(over: socket, parameters: parameters, body: body)) != nil {
                        counts.update { $0.answered += 1 }
                    } else {
                        counts.update { $0.cutOff += 1 }
                    }
                }
            }
        }
        #expect(waitUntil(timeout: 30) { counts.get().answered >= 20 }, "round \(round): no load got through")
        let end: ProcessEnd
        if signal == SIGTERM {
            end = process.stop(timeout: 30)
        } else {
            process.signal(signal)
            end = process.waitForExit(timeout: 30) ?? process.stop()
        }
        running.set(false)
        // Each client's socket has a 5 s timeout, so they all return within it.
        #expect(clients.wait(timeout: .now() + 30) == .success, "the clients did not finish")
        if end != .exited(0) { print("round \(round): \(program.rawValue) \(end): \(process.output.suffix(2000))") }
        return (end, counts.get())
    }
}
