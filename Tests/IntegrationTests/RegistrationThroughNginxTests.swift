import Foundation
import LiveActivityDomain
import TestSupport
import Testing

/// The app's calls through real nginx, the real responder over FastCGI and a real SQLite file.
@Suite("Registration through nginx")
struct RegistrationThroughNginxTests {
    @Test(arguments: TestEngine.real)
    func theAppsExactRequestRegistersTheTokenWithTheConfiguredEnvironment(engine: TestEngine) throws {
        let stack = try LiveStack(with(engine, ["APNS_ENVIRONMENT": "sandbox"]))
        let token = testToken(1)
        let result = try stack.request("POST", "/wakeup", body: "{\"pushToken\":\"\(token)\",\"activityType\":\"charging\"}")

        #expect(result.status == 200)
        #expect(result.text == "{\"success\":true}")
        let row = try #require(try storedRegistration(token, in: stack))
        #expect(row.activityType == .charging)
        #expect(row.environment == .sandbox)
        #expect(row.expiresAt - row.registeredAt == 8 * 3_600_000)
    }

    @Test(arguments: TestEngine.real)
    func everyAnswerCarriesTheAPIHeaders(engine: TestEngine) throws {
        let stack = try LiveStack(engine)
        let answers = [
            try stack.request("POST", "/wakeup", body: registerBody(testToken(2))),
            try stack.request("POST", "/wakeup", body: "not json"),
            try stack.request("GET", "/wakeup"),
            try stack.request("GET", "/wakeup/health"),
            try stack.request("GET", "/nowhere"),
            try stack.request("POST", "/wakeup", body: String(repeating: " ", count: 5000)),
            try stack.request("POST", "/wakeup", body: "{}", contentType: "text/plain"),
        ]
        for answer in answers {
            #expect(answer.header("Content-Type") == "application/json", "\(answer)")
            #expect(answer.header("Cache-Control") == "no-store", "\(answer)")
            #expect(answer.header("Access-Control-Allow-Origin") == "*", "\(answer)")
        }
    }

    @Test(arguments: TestEngine.real)
    func unregisterRemovesTheRowAndIsIdempotent(engine: TestEngine) throws {
        let stack = try LiveStack(engine)
        let token = testToken(3)
        let other = testToken(4)
        #expect(try stack.request("POST", "/wakeup", body: registerBody(token)).status == 200)
        #expect(try stack.request("POST", "/wakeup", body: registerBody(other)).status == 200)

        let first = try stack.request("POST", "/wakeup/unregister", body: unregisterBody(token))
        #expect(first.status == 200)
        #expect(first.text == "{\"success\":true}")
        #expect(try storedRegistration(token, in: stack) == nil)
        #expect(try storedRegistration(other, in: stack) != nil)

        let again = try stack.request("POST", "/wakeup/unregister", body: unregisterBody(token))
        #expect(again.status == 200)
        #expect(again.text == "{\"success\":true}")
        #expect(try stack.database.count() == 1)
    }

    @Test(arguments: TestEngine.real)
    func healthCountsTheRegistrations(engine: TestEngine) throws {
        let stack = try LiveStack(engine)
        #expect(try stack.request("GET", "/wakeup/health").text == "{\"status\":\"ok\",\"registrations\":0}")
        for seed in 10..<13 {
            #expect(try stack.request("POST", "/wakeup", body: registerBody(testToken(seed))).status == 200)
        }
        let health = try stack.request("GET", "/wakeup/health")
        #expect(health.status == 200)
        #expect(health.text == "{\"status\":\"ok\",\"registrations\":3}")
    }

    @Test(arguments: TestEngine.real)
    func healthMetricsAndStatusAnswerOnlyLocalClients(engine: TestEngine) throws {
        let stack = try LiveStack(engine)
        for path in ["/wakeup/health", "/wakeup/metrics", "/wakeup/status"] {
            let remote = try stack.request("GET", path, from: "127.0.0.2")
            #expect(remote.status == 403, "\(path)")
            #expect(remote.text == "{\"error\":\"Forbidden\"}")
        }
        #expect(try stack.request("GET", "/wakeup/health").status == 200)
    }

    @Test(arguments: TestEngine.real)
    func prefixedLocationsChooseTheEnvironmentAndTheBodyWins(engine: TestEngine) throws {
        let stack = try LiveStack(engine)
        let viaDev = testToken(20)
        let viaProd = testToken(21)
        let bodyWins = testToken(22)
        let plain = testToken(23)
        #expect(try stack.request("POST", "/dev/wakeup", body: registerBody(viaDev)).status == 200)
        #expect(try stack.request("POST", "/prod/wakeup", body: registerBody(viaProd)).status == 200)
        #expect(try stack.request("POST", "/dev/wakeup", body: registerBody(bodyWins, environment: "production")).status == 200)
        #expect(try stack.request("POST", "/wakeup", body: registerBody(plain, type: "debug")).status == 200)

        #expect(try storedRegistration(viaDev, in: stack)?.environment == .sandbox)
        #expect(try storedRegistration(viaProd, in: stack)?.environment == .production)
        #expect(try storedRegistration(bodyWins, in: stack)?.environment == .production)
        #expect(try storedRegistration(plain, in: stack)?.environment == .production)
        #expect(try storedRegistration(plain, in: stack)?.activityType == .debug)

        #expect(try stack.request("POST", "/dev/wakeup/unregister", body: unregisterBody(viaDev)).status == 200)
        #expect(try stack.request("POST", "/prod/wakeup/unregister", body: unregisterBody(viaProd)).status == 200)
        #expect(try stack.database.count() == 2)
    }

    @Test(arguments: TestEngine.real)
    func registeringAgainRefreshesTheRowInPlace(engine: TestEngine) throws {
        let stack = try LiveStack(engine)
        let token = testToken(30)
        #expect(try stack.request("POST", "/dev/wakeup", body: registerBody(token, type: "debug")).status == 200)
        #expect(
            try stack.request("POST", "/wakeup", body: registerBody(token.uppercased(), environment: "production")).status == 200)
        let row = try #require(try storedRegistration(token, in: stack))
        #expect(row.activityType == .charging)
        #expect(row.environment == .production)
        #expect(try stack.database.count() == 1)
    }

    @Test(arguments: TestEngine.real)
    func theAccessLogHoldsNoClientAddress(engine: TestEngine) throws {
        let stack = try LiveStack(engine)
        let registered = try stack.request("POST", "/wakeup", body: registerBody(testToken(40)), from: "127.0.0.3")
        #expect(registered.status == 200, "\(registered.status) \(stack.responderLog)")
        _ = try stack.request("GET", "/nowhere", from: "127.0.0.3")
        // nginx logs a request when it lets go of its connection. After a POST that is often a
        // lingering close: the client has its answer (nginx shut its side) and the line comes
        // once the client's close is read, which may be after the next request's line.
        let posted = "\"POST /wakeup HTTP/1.1\" 200"
        #expect(waitUntil(timeout: 60) { stack.accessLog.contains("/nowhere") && stack.accessLog.contains(posted) })
        #expect(!stack.accessLog.contains("127.0.0.3"))
        #expect(stack.accessLog.contains(posted))
    }
}

/// Stack options on `engine` with `environment` for the responder.
func with(_ engine: TestEngine, _ environment: [String: String], workers: Int = 16, rate: String? = nil) -> LiveStack.Options {
    var options = LiveStack.Options(engine: engine)
    options.environment = environment
    options.workers = workers
    if let rate { options.rate = rate }
    return options
}
