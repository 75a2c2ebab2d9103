import Foundation
import LiveActivityDomain
import LiveActivityWakeClient
import TestSupport
import Testing

/// Issue 50 through the real system: the library's `diagnostics()` over URLSession to real nginx
/// and the real responder on this pass's engine - a registration's story and typed hints, an
/// unknown token, the responder's per-token limit as a typed error - and the library's default
/// transport following a redirect within the backend's origin but never re-sending a body to
/// another host.
@Suite("Wake client diagnostics through nginx")
struct WakeClientDiagnosticsTests {
    @Test(arguments: TestEngine.real)
    func theRegistrationsStoryComesBackTypedWithItsHints(engine: TestEngine) async throws {
        let stack = try LiveStack(engine)
        let client = wakeClient(stack, environment: .production)
        let token = deviceToken(5001)
        try await client.register(deviceToken: token, interval: 600)

        var diagnostics = try await client.diagnostics(deviceToken: token)
        #expect(diagnostics.registered && diagnostics.activityType == "charging" && diagnostics.environment == "production")
        #expect(diagnostics.interval == 600 && diagnostics.cadence == .base && diagnostics.nextPushIn == 0)
        #expect((7 * 3600...8 * 3600).contains(diagnostics.expiresIn ?? -1))
        #expect(diagnostics.attempts.isEmpty && diagnostics.widgets == nil && diagnostics.hints.isEmpty)

        // Three wakes answered 200, none acknowledged, as the sweep writes them.
        let key = try PushToken(validating: token.hex)
        let registeredAt = try #require(try storedRegistration(token.hex, in: stack)).registeredAt
        for index in 0..<3 {
            let at = registeredAt + Int64(index) * 1000
            try stack.database.apply(
                [.delivered(.wake(key), selectedRegisteredAt: registeredAt, at: at, nextPushAt: at + 600_000)],
                answered: [
                    AnsweredPush(
                        key: .wake(key),
                        attempt: PushAttempt(
                            token: key, sentAt: at - 10, answeredAt: at, status: 200, reason: nil, apnsID: "ID-\(index)"),
                        activityType: .charging, environment: .production, previousDeliveryAt: nil)
                ])
        }
        diagnostics = try await client.diagnostics(deviceToken: token, widgetPushToken: deviceToken(5002))
        #expect(
            diagnostics.attempts.map(\.status) == [200, 200, 200] && diagnostics.attempts.allSatisfy { $0.ackedAfter == nil })
        #expect(diagnostics.hints.map(\.code) == [.notWaking, .noWidgetsTarget])
        #expect(diagnostics.hints.first?.text.contains("open the app") == true)

        let unknown = try await client.diagnostics(deviceToken: deviceToken(5003))
        #expect(!unknown.registered && unknown.hints.map(\.code) == [.notRegistered])
        #expect(loggedRequests(stack, "/wakeup/diagnostics", status: 200, expected: 3) == 3)
    }

    /// The responder's limit (4 a minute per token) comes back at once as `rateLimited` with its
    /// `Retry-After`: a wait longer than the policy's cap is not waited for.
    @Test(arguments: TestEngine.real)
    func askingTooOftenIsRateLimitedWithRetryAfter(engine: TestEngine) async throws {
        let stack = try LiveStack(engine)
        let log = LogLines()
        let client = wakeClient(stack, log: log)
        let token = deviceToken(5011)
        // The fifth within a minute is refused; on a machine so loaded that a minute passes
        // first, a later one is (no assertion on how fast the calls go).
        var answered = 0
        var refused: WakeClientError?
        for _ in 1...20 {
            refused = await clientError { _ = try await client.diagnostics(deviceToken: token) }
            if refused != nil { break }
            answered += 1
        }
        #expect(answered >= 4, "\(String(describing: refused))")
        guard case .rateLimited(let retryAfter?, let attempts) = refused else {
            Issue.record("not rate limited: \(String(describing: refused))")
            return
        }
        #expect((1...60).contains(retryAfter) && attempts == 1)
        #expect(log.lines.allSatisfy { !$0.contains(token.hex.prefix(9)) }, "\(log.lines)")
        #expect(loggedRequests(stack, "/wakeup/diagnostics", status: 429, expected: 1) == 1)
    }

    /// A redirect within the backend's own origin is followed; one to another host (here
    /// `localhost` for `127.0.0.1`) is not: the body, which holds the token, is not sent again,
    /// and the client reports the 3xx.
    @Test(arguments: TestEngine.real)
    func noBodyIsResentToARedirectsOtherHost(engine: TestEngine) async throws {
        var options = LiveStack.Options(engine: engine)
        options.serverLines = """
                    location = /same/wakeup { return 307 http://127.0.0.1:$server_port/wakeup; }
                    location = /away/wakeup { return 307 http://localhost:$server_port/wakeup; }
                    location = /away/wakeup/diagnostics { return 308 http://localhost:$server_port/wakeup/diagnostics; }
            """
        let stack = try LiveStack(options, label: "redirects")
        let posts = { (path: String) in
            stack.accessLog.components(separatedBy: "\n").filter { $0.contains("\"POST \(path) HTTP/1.1\"") }.count
        }
        // Within the origin the session follows. (Linux's URLSession drops the body on a 307,
        // which the responder then refuses; Apple's sends it again.)
        let token = deviceToken(5021)
        let followed = await clientError { try await wakeClient(stack, prefix: "/same").register(deviceToken: token) }
        #expect(followed == nil || followed == .badRequest(reason: "Request body must be a JSON object", supported: nil))
        waitUntil(timeout: 30) { posts("/wakeup") == 1 }
        #expect(posts("/wakeup") == 1, "followed within the origin")

        // To another host it does not: the client reports the 3xx, and nothing arrives there.
        let away = wakeClient(stack, prefix: "/away", environment: .production)
        let registering = await clientError { try await away.register(deviceToken: deviceToken(5022)) }
        #expect(registering == .unexpectedStatus(307, reason: nil))
        let asking = await clientError { _ = try await away.diagnostics(deviceToken: token) }
        #expect(asking == .unexpectedStatus(308, reason: nil))
        waitUntil(timeout: 30) { posts("/away/wakeup/diagnostics") == 1 }
        #expect(posts("/away/wakeup") == 1 && posts("/away/wakeup/diagnostics") == 1)
        #expect(posts("/wakeup") == 1 && posts("/wakeup/diagnostics") == 0)
        #expect(try storedRegistration(deviceToken(5022).hex, in: stack) == nil)
    }
}
