import Foundation
import Synchronization
import Testing

@testable import LiveActivityWakeClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Issue 50, the library's side: the diagnostics' answer read into typed values (a code this
/// version does not know still reads), nothing sent to a plain-http host that is not loopback,
/// no redirect followed to another origin, and retries spread by their jitter.
@Suite struct WakeDiagnosticsTests {
    let answer = #"""
        {"registered":true,"activityType":"charging","environment":"sandbox","interval":600,"cadence":"lowPower",
         "nextPushIn":42,"expiresIn":25000,
         "attempts":[{"at":"2026-12-01T10:05:09Z","status":200,"reason":null,"ackedAfter":0.4},
                     {"at":"2026-12-01T10:00:09Z","status":null,"reason":"CURLE_COULDNT_CONNECT","ackedAfter":null}],
         "widgets":{"interval":1800,"nextPushIn":100,"attempts":[]},
         "hints":[{"code":"lowPower","text":"Low Power Mode is on."},{"code":"newInAFutureVersion","text":"Something new."}],
         "extra":"ignored"}
        """#

    @Test func theAnswerReadsIntoTypedValues() throws {
        let diagnostics = try WakeDiagnostics(json: Data(answer.utf8))
        #expect(diagnostics.registered && diagnostics.activityType == "charging" && diagnostics.environment == "sandbox")
        #expect(diagnostics.interval == 600 && diagnostics.cadence == .lowPower)
        #expect(diagnostics.nextPushIn == 42 && diagnostics.expiresIn == 25000)
        #expect(diagnostics.attempts.count == 2)
        #expect(diagnostics.attempts[0].status == 200 && diagnostics.attempts[0].ackedAfter == 0.4)
        #expect(diagnostics.attempts[0].at == Date(timeIntervalSince1970: 1_796_119_509))
        #expect(diagnostics.attempts[1].status == nil && diagnostics.attempts[1].reason == "CURLE_COULDNT_CONNECT")
        #expect(diagnostics.widgets?.interval == 1800 && diagnostics.widgets?.attempts == [])
        #expect(diagnostics.hints.map(\.code) == [.lowPower, .other("newInAFutureVersion")])
        #expect(diagnostics.hints[1].text == "Something new.")
    }

    @Test func anUnregisteredTokenHasOnlyHints() throws {
        let diagnostics = try WakeDiagnostics(
            json: Data(#"{"registered":false,"hints":[{"code":"notRegistered","text":"Register again."}]}"#.utf8))
        #expect(!diagnostics.registered && diagnostics.interval == nil && diagnostics.attempts.isEmpty)
        #expect(diagnostics.widgets == nil && diagnostics.hints == [WakeHint(code: .notRegistered, text: "Register again.")])
    }

    @Test(arguments: ["", "[]", "{}", "{\"success\":true}", "{\"registered\":\"yes\"}"])
    func anotherBodyIsAnInvalidAnswer(_ body: String) {
        #expect(throws: WakeClientError.invalidAnswer) { try WakeDiagnostics(json: Data(body.utf8)) }
    }

    @Test func everyCodeReadsBackAsItselfAndAnUnknownOneAsOther() {
        let names = [
            "notRegistered", "tokenRejected", "notWaking", "serverFault", "paused", "noActivity", "lowPower", "stretched",
            "expiringSoon", "noWidgetsTarget",
        ]
        for name in names {
            let code = WakeHint.Code(rawValue: name)
            #expect(code.rawValue == name)
            if case .other = code { Issue.record("\(name) read as other") }
        }
        #expect(WakeHint.Code(rawValue: "x") == .other("x"))
        #expect(WakeCadence(rawValue: "stretched") == .stretched && WakeCadence(rawValue: "y") == .other("y"))
    }

    @Test(arguments: [
        ("https://wakeup.example.org", true), ("http://127.0.0.1:8080", true), ("http://localhost:8080", true),
        ("http://[::1]:8080", true), ("http://127.5.6.7", true), ("http://wakeup.example.org", false),
        ("http://192.168.1.2:8080", false), ("ftp://wakeup.example.org", false), ("http://127.0.0.1.example.org", false),
        ("http://localhost.example.org", false),
    ])
    func onlyHttpsOrALoopbackHostIsSentTo(_ base: String, _ allowed: Bool) throws {
        let url = try #require(URL(string: base))
        #expect((WakeClient.insecurity(of: url) == nil) == allowed, "\(base)")
    }

    @Test func aPlainHttpBaseURLSendsNothingAndSaysWhy() async throws {
        let transport = CountingTransport()
        let client = WakeClient(baseURL: URL(string: "http://wakeup.example.org")!, transport: transport)
        let token = try #require(DeviceToken(hex: String(repeating: "ab", count: 32)))
        await #expect(throws: WakeClientError.insecureBaseURL("http://wakeup.example.org")) {
            try await client.diagnostics(deviceToken: token)
        }
        await #expect(throws: WakeClientError.insecureBaseURL("http://wakeup.example.org")) {
            try await client.register(deviceToken: token)
        }
        #expect(transport.count == 0)
        #expect(WakeClientError.insecureBaseURL("http://x").description.contains("not https"))
    }

    @Test func aRedirectIsFollowedOnlyWithinItsOrigin() throws {
        func url(_ text: String) -> URL? { URL(string: text) }
        #expect(SameOriginRedirects.sameOrigin(url("https://a.example/x"), url("https://a.example:443/y")))
        #expect(SameOriginRedirects.sameOrigin(url("http://127.0.0.1:8080/x"), url("http://127.0.0.1:8080/z")))
        #expect(!SameOriginRedirects.sameOrigin(url("https://a.example/x"), url("https://b.example/x")))
        #expect(!SameOriginRedirects.sameOrigin(url("https://a.example/x"), url("http://a.example/x")))
        #expect(!SameOriginRedirects.sameOrigin(url("http://127.0.0.1:8080/x"), url("http://localhost:8080/x")))
        #expect(!SameOriginRedirects.sameOrigin(url("http://127.0.0.1:8080/x"), url("http://127.0.0.1:8081/x")))
    }

    @Test func retriesAreSpreadByTheirJitterNeverPastTheCapNorBeforeRetryAfter() {
        let policy = WakeRetryPolicy(maximumAttempts: 5, maximumWait: 10, firstWait: 1, jitter: 0.5)
        #expect(policy.wait(after: 1, retryAfter: nil, spread: 0) == 1)
        #expect(policy.wait(after: 1, retryAfter: nil, spread: 1) == 1.5)
        #expect(policy.wait(after: 3, retryAfter: nil, spread: 0.5) == 5)
        #expect(policy.wait(after: 4, retryAfter: nil, spread: 1) == 10, "capped")
        #expect(policy.wait(after: 1, retryAfter: 4, spread: 1) == 6)
        #expect(policy.wait(after: 1, retryAfter: 9, spread: 1) == 10, "never past the cap")
        #expect(policy.wait(after: 1, retryAfter: 0, spread: 1) == 0.5, "a 0 still spreads")
        #expect(policy.wait(after: 1, retryAfter: 11, spread: 0) == nil)
        #expect(WakeRetryPolicy(jitter: 0).wait(after: 1, retryAfter: 4, spread: 1) == 4)
        #expect(WakeRetryPolicy(jitter: .nan).jitter == 0 && WakeRetryPolicy(jitter: 7).jitter == 1)
    }

    @Test func theClientDrawsAJitterForEachRetry() async throws {
        let transport = CountingTransport(status: 503, retryAfter: "2")
        let waits = LockedWaits()
        let draws = LockedWaits()
        let client = WakeClient(
            baseURL: URL(string: "https://wakeup.example.org")!, pathPrefix: "", environment: .production,
            transport: transport, retryPolicy: WakeRetryPolicy(maximumAttempts: 3, jitter: 0.5), requestTimeout: 5,
            log: nil, sleep: { waits.append($0) },
            spread: {
                draws.append(0.5)
                return 0.5
            })
        let token = try #require(DeviceToken(hex: String(repeating: "ab", count: 32)))
        await #expect(throws: WakeClientError.unavailable(reason: nil, retryAfter: 2, attempts: 3)) {
            try await client.unregister(deviceToken: token)
        }
        #expect(waits.values == [2.5, 2.5], "\(waits.values)")
        #expect(draws.values.count >= 2 && transport.count == 3, "a draw for each retry")
    }
}

/// A transport that answers every request with `status` and counts them.
final class CountingTransport: WakeTransport, Sendable {
    private let sent = Mutex(0)
    let status: Int
    let retryAfter: String?

    init(status: Int = 200, retryAfter: String? = nil) {
        self.status = status
        self.retryAfter = retryAfter
    }

    var count: Int { sent.withLock { $0 } }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        sent.withLock { $0 += 1 }
        let headers = retryAfter.map { ["Retry-After": $0] }
        let response = HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
        return (Data("{\"success\":true}".utf8), response)
    }
}

/// Values recorded from a `@Sendable` closure.
final class LockedWaits: Sendable {
    private let recorded = Mutex<[Double]>([])
    func append(_ value: Double) { recorded.withLock { $0.append(value) } }
    var values: [Double] { recorded.withLock { $0 } }
}
