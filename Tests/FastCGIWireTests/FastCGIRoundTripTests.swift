import Foundation
import TestSupport
import Testing

@testable import FastCGIWire

/// The wire's workers serving a real socket in this process, with libfcgi underneath and a
/// FastCGI client on the other end; stopped (and the socket removed) when released.
final class InProcessServer: Sendable {
    let folder = TemporaryDirectory("wire")
    let socketPath: String
    let pool: WorkerPool
    let logged = LockedBox<[String]>([])
    let allFailed = LockedBox(false)

    init(workers: Int = 2, bodyLimit: Int = 100_000, makeResponder: @escaping @Sendable (Int) throws -> any HTTPResponder) throws
    {
        socketPath = folder.file("fcgi.sock")
        pool = WorkerPool(socket: try ListeningSocket(.unix(path: socketPath, mode: 0o600), backlog: 16))
        let logged = self.logged
        let allFailed = self.allFailed
        pool.start(
            count: workers, bodyLimit: bodyLimit, log: { line in logged.update { $0.append(line) } },
            makeResponder: makeResponder, allFailed: { allFailed.update { $0 = true } })
    }

    deinit { pool.stop(grace: 2) }

    func connect() throws -> RawSocket { try RawSocket(unixPath: socketPath) }
}

@Suite struct FastCGIRoundTripTests {
    let nginxParameters = [
        "REQUEST_METHOD": "POST", "DOCUMENT_URI": "/dev/wakeup", "REQUEST_URI": "/dev/wakeup?status=201",
        "QUERY_STRING": "status=201", "CONTENT_TYPE": "application/json",
    ]

    @Test func aRequestCrossesTheWireWithEveryParameterAndItsWholeBody() throws {
        let server = try InProcessServer { _ in EchoResponder() }
        // Longer than one STDIN record (65535 bytes); names and values past 127 bytes take the
        // protocol's four-byte lengths.
        let body = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        var parameters = nginxParameters
        parameters["HTTP_X_LONG"] = String(repeating: "v", count: 300)
        parameters["A_PARAMETER_NAME_LONGER_THAN_127_BYTES" + String(repeating: "_", count: 100)] = "x"
        parameters["A_PARAMETER_NAME_LONGER_THAN_127_BYTES"] = "short name, same start"
        parameters["CONTENT_LENGTH"] = String(body.count)

        let result = try FastCGIClient.request(over: server.connect(), parameters: parameters, body: body)

        #expect(result.status == 201)
        #expect(result.header("X-Echo") == "yes")
        #expect(result.header("Content-Length") == String(result.body.count))
        let fields = EchoResponder.fields(result.text)
        #expect(fields["method"] == "POST" && fields["path"] == "/dev/wakeup" && fields["contentType"] == "application/json")
        #expect(fields["bodyCount"] == "70000" && fields["tooLarge"] == "false")
        #expect(fields["bodySum"] == String(body.reduce(0) { $0 &+ Int($1) }))
        #expect(fields["HTTP_X_LONG"] == String(repeating: "v", count: 300))
        #expect(fields["A_PARAMETER_NAME_LONGER_THAN_127_BYTES"] == "short name, same start")
    }

    @Test func aBodyOverTheLimitArrivesFlaggedAndAKeptConnectionServesTheNextRequest() throws {
        let server = try InProcessServer(workers: 1, bodyLimit: 100) { _ in EchoResponder() }
        let socket = try server.connect()
        var parameters = nginxParameters
        parameters["CONTENT_LENGTH"] = "50"  // claims less than it sends: what arrives decides

        let large = try FastCGIClient.request(
            over: socket, parameters: parameters, body: Array(repeating: 1, count: 5000), keepConnection: true)
        let fields = EchoResponder.fields(large.text)
        #expect(fields["tooLarge"] == "true" && fields["bodyCount"] == "101")

        // The rest of the large body is not taken for the next request's.
        parameters["CONTENT_LENGTH"] = "3"
        parameters["QUERY_STRING"] = "status=200"
        let next = try FastCGIClient.request(over: socket, parameters: parameters, body: [1, 2, 3], keepConnection: true)
        #expect(next.status == 200)
        #expect(EchoResponder.fields(next.text)["bodyCount"] == "3")
        #expect(EchoResponder.fields(next.text)["tooLarge"] == "false")
    }

    @Test func aCGIServersNamesRouteTheSameRequest() throws {
        let server = try InProcessServer { _ in EchoResponder() }
        let result = try FastCGIClient.request(
            over: server.connect(),
            parameters: ["REQUEST_METHOD": "GET", "SCRIPT_NAME": "/wakeup", "PATH_INFO": "/health"])
        let fields = EchoResponder.fields(result.text)
        #expect(result.status == 200)
        #expect(fields["method"] == "GET" && fields["path"] == "/wakeup/health" && fields["bodyCount"] == "0")
    }

    @Test func workersServeClientsAtTheSameTime() throws {
        let server = try InProcessServer(workers: 4) { _ in EchoResponder() }
        let statuses = LockedBox([Int]())
        let ended = TestThreads.run(8) { index in
            let status =
                (try? FastCGIClient.request(
                    over: server.connect(), parameters: ["REQUEST_METHOD": "GET", "DOCUMENT_URI": "/\(index)"]))?.status ?? -1
            statuses.update { $0.append(status) }
        }
        #expect(ended, "a client never got its answer")
        #expect(statuses.get() == Array(repeating: 200, count: 8))
    }

    @Test func whenNoWorkerCanMakeItsResponderThePoolSaysSoAndGivesUp() throws {
        struct Refused: Error, CustomStringConvertible { var description: String { "no database" } }
        let server = try InProcessServer(workers: 2) { _ in throw Refused() }
        #expect(waitUntil(timeout: 60) { server.allFailed.get() })
        #expect(server.logged.get().sorted() == ["worker 0 cannot start: no database", "worker 1 cannot start: no database"])
    }

    @Test func oneWorkerFailingIsNotAllFailingWhileAnotherStillStarts() throws {
        struct Refused: Error, CustomStringConvertible { var description: String { "no database" } }
        let release = TestSignal()
        let server = try InProcessServer(workers: 2) { worker in
            if worker == 1 { _ = release.wait(timeout: .seconds(60)) }
            throw Refused()
        }
        #expect(waitUntil(timeout: 60) { server.logged.get() == ["worker 0 cannot start: no database"] })
        #expect(!server.allFailed.get(), "worker 1 is still making its responder")
        release.signal()
        #expect(waitUntil(timeout: 60) { server.allFailed.get() })
        #expect(server.logged.get().sorted() == ["worker 0 cannot start: no database", "worker 1 cannot start: no database"])
    }

    @Test func aStoppedPoolRemovesItsSocketAndTakesNoMoreRequests() throws {
        let server = try InProcessServer { _ in EchoResponder() }
        #expect(try FastCGIClient.request(over: server.connect(), parameters: nginxParameters).status == 201)
        server.pool.stop(grace: 2)
        #expect(!FileManager.default.fileExists(atPath: server.socketPath))
        #expect(throws: SocketError.self) { try server.connect() }
        #expect(!server.allFailed.get(), "a stop is no failure")
    }
}
