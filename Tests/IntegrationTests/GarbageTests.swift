import Foundation
import LiveActivityDomain
import TestSupport
import Testing

/// SPEC section 3: "The responder survives any input: a malformed request costs that request,
/// never the process." Garbage at the JSON, HTTP and FastCGI levels, then the same process
/// still answers and the data is as it was.
@Suite("Garbage")
struct GarbageTests {
    /// A small deterministic generator, so a failure can be replayed.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
        mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: next() >> 56) } }
    }

    /// Request bodies that must all be refused with 400.
    static func garbageBodies(count: Int) -> [[UInt8]] {
        var random = Generator(state: 42)
        // 3000 levels deep within the 4096-byte limit: the parser must refuse, not recurse to death.
        let deepArray = Array((String(repeating: "[", count: 3000) + String(repeating: "]", count: 1000)).utf8)
        let deepObject = Array((String(repeating: "{\"a\":", count: 600) + String(repeating: "[", count: 1000)).utf8)
        let deepInToken = Array(
            ("{\"pushToken\":" + String(repeating: "[", count: 3000) + String(repeating: "]", count: 1000) + "}").utf8)
        let hex = testToken(200)
        return (0..<count).map { index in
            switch index % 12 {
            case 0: random.bytes(1 + Int(random.next() % 4096))
            case 1: Array("{\"pushToken\":\"".utf8) + [0xFF, 0xFE, 0xC3, 0x28, 0xED, 0xA0, 0x80] + Array("\"}".utf8)
            case 2: deepArray
            case 3: deepObject
            case 4: Array("{\"pushToken\":\"\(hex.prefix(32))".utf8) + [0] + Array("\(hex.dropFirst(33))\"}".utf8)
            case 5: [UInt8](repeating: 0, count: 1 + Int(random.next() % 2000))
            case 6: Array("{\"pushToken\":\"\(hex)\\u0000\"}".utf8)
            case 7: Array("{\"pushToken\":1e999999,\"activityType\":-0.0e-99999}".utf8)
            case 8: deepInToken
            case 9: Array("{\"pushToken\":\"\(String(repeating: "é", count: 64))\"}".utf8)
            case 10: Array(String(repeating: " ", count: 4000).utf8)
            default: Array("{\"pushToken\":\"\(hex)\"".utf8) + random.bytes(Int(random.next() % 64))
            }
        }
    }

    @Test(arguments: TestEngine.real) func twoHundredGarbageRequestsLeaveTheSameResponderAnsweringAndTheDataUnchanged(
        engine: TestEngine
    ) throws {
        let stack = try LiveStack(engine)
        for seed in 201..<204 {
            #expect(try stack.request("POST", "/wakeup", body: registerBody(testToken(seed))).status == 200)
        }
        let before = try snapshot(of: stack)
        let pid = stack.responder.pid

        let paths = ["/wakeup", "/wakeup/unregister", "/dev/wakeup", "/prod/wakeup/unregister"]
        for (index, body) in Self.garbageBodies(count: 200).enumerated() {
            let result = try stack.request("POST", paths[index % paths.count], bytes: body)
            #expect(result.status == 400, "garbage #\(index) (\(body.count) bytes): \(result)")
        }

        #expect(try stack.request("GET", "/wakeup/health").status == 200)
        #expect(stack.responder.isRunning)
        #expect(stack.responder.pid == pid)
        #expect(try snapshot(of: stack) == before)
    }

    @Test(arguments: TestEngine.real)
    func malformedHTTPNeverReachesTheResponderAsARequest(engine: TestEngine) throws {
        let stack = try LiveStack(engine)
        let before = try snapshot(of: stack)
        let host = "Host: 127.0.0.1\r\n"
        let sends: [[UInt8]] = [
            Array("GARBAGE\r\n\r\n".utf8),
            Array("POST /wake".utf8) + [0] + Array("up HTTP/1.1\r\n\(host)\r\n".utf8),
            Array("POST /wakeup HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\nzz\r\n\r\n".utf8),
            Array("POST /wakeup HTTP/1.1\r\n\(host)Content-Length: 100\r\nContent-Type: application/json\r\n\r\n{\"push".utf8),
            Array("POST /wakeup HTTP/1.1\r\n\(host)Content-Length: -5\r\n\r\n".utf8),
            Array("POST /wakeup HTTP/1.1\r\n\(host)Content-Length: 99999999999999999999\r\n\r\n".utf8),
            Array("POST /wakeup HTTP/1.1\r\n\(host)Bad Header Without Colon\r\n\r\n".utf8),
            Array("POST /wakeup HTTP/9.9\r\n\(host)\r\n".utf8),
            [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03],  // a TLS ClientHello's start
            Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8),
        ]
        for bytes in sends {
            // Half-closed: a request missing part of its body must not wait for nginx's timeout.
            let answer = try HTTPClient.sendRaw(port: stack.port, bytes, halfClose: true)
            let text = String(decoding: answer.prefix(12), as: UTF8.self)
            // Refused (4xx, or 505 for an unknown version), or dropped; never a success.
            #expect(
                answer.isEmpty || text.hasPrefix("HTTP/1.1 4") || text.hasPrefix("HTTP/1.1 505"),
                "\(String(decoding: bytes.prefix(40), as: UTF8.self)) -> \(String(decoding: answer.prefix(200), as: UTF8.self))")
        }
        #expect(try stack.request("GET", "/wakeup/health").status == 200)
        #expect(try snapshot(of: stack) == before)
    }

    @Test(arguments: TestEngine.real)
    func aChunkedBodyIsReadWithoutTrustingALength(engine: TestEngine) throws {
        let stack = try LiveStack(engine)
        let body = registerBody(testToken(210))
        let chunked =
            "POST /wakeup HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n"
            + String(body.utf8.count - 10, radix: 16) + "\r\n" + String(body.dropLast(10)) + "\r\n"
            + "a\r\n" + String(body.suffix(10)) + "\r\n0\r\n\r\n"
        let answer = try HTTPResult(parsing: HTTPClient.sendRaw(port: stack.port, Array(chunked.utf8)))
        #expect(answer.status == 200)
        #expect(try storedRegistration(testToken(210), in: stack) != nil)
    }

    // MARK: - FastCGI level, straight to the responder's socket

    static func record(_ type: UInt8, _ body: [UInt8], version: UInt8 = 1) -> [UInt8] {
        FastCGIClient.record(type: type, body, version: version)
    }
    static let beginRequest = record(1, [0, 1, 0, 0, 0, 0, 0, 0])

    /// A name-value pair with one-byte lengths (both under 128).
    static func pair(_ name: String, _ value: String) -> [UInt8] {
        [UInt8(name.utf8.count), UInt8(value.utf8.count)] + Array(name.utf8) + Array(value.utf8)
    }

    @Test(arguments: TestEngine.real)
    func malformedFastCGIRecordsCostOnlyTheirConnection(engine: TestEngine) throws {
        let stack = try LiveStack(engine)
        let before = try snapshot(of: stack)
        let pid = stack.responder.pid
        var random = Generator(state: 7)
        let registration = Array(registerBody(testToken(220)).utf8)
        let sends: [[UInt8]] = [
            random.bytes(300),
            Self.record(1, [0, 1, 0, 0, 0, 0, 0, 0], version: 9),
            Array(Self.beginRequest.prefix(5)),
            Self.beginRequest + Self.record(4, [5, 3, 65, 66, 67]),
            // Lengths of 2^31 - 1 (the integer overflow of CVE-2025-23016 in unpatched libfcgi).
            Self.beginRequest + Self.record(4, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 65, 65, 65, 65]),
            Self.beginRequest + Self.record(4, [0x80, 0x00, 0x10, 0x00, 0x01] + [UInt8](repeating: 65, count: 10)),
            Self.record(1, [0, 7, 0, 0, 0, 0, 0, 0]),
            // Parameters saying 10 bytes of body, then a body that never ends.
            Self.beginRequest + Self.record(4, Self.pair("REQUEST_METHOD", "POST") + Self.pair("CONTENT_LENGTH", "10"))
                + Self.record(4, []) + Self.record(5, random.bytes(100)),
            // A well-formed request, cut off in the middle of its body: never stored.
            Self.beginRequest
                + Self.record(4, Self.pair("REQUEST_METHOD", "POST") + Self.pair("DOCUMENT_URI", "/wakeup"))
                + Self.record(4, []) + Self.record(5, Array(registration.prefix(30))),
        ]
        for bytes in sends {
            let socket = try RawSocket(unixPath: stack.socketPath)
            socket.send(bytes)
            socket.finishSending()
            _ = socket.receiveAll()
        }
        #expect(try stack.request("GET", "/wakeup/health").status == 200)
        #expect(stack.responder.pid == pid)
        #expect(stack.responder.isRunning)
        #expect(try snapshot(of: stack) == before)
    }
}
