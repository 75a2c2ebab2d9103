import Foundation
import LiveActivityWakeClient
import TestSupport
import Testing

/// 429 and 503 as the real system answers them, retried as `WakeRetryPolicy` says: the number of
/// requests is counted in nginx's access log, the waits the client asked for are recorded (a
/// wait of nginx's 5 or 60 seconds is not taken), and the last answer is thrown typed.
@Suite("Wake client retries")
struct WakeClientRetryTests {
    /// The responder's own 503 at `LIVEACTIVITY_MAX_REGISTRATIONS` has no Retry-After: the
    /// client waits its own doubling waits, for real, a bounded number of times.
    @Test(arguments: TestEngine.real)
    func atTheRegistrationCapTheClientRetriesABoundedNumberOfTimesThenThrows(engine: TestEngine)
        async throws
    {
        let stack = try LiveStack(with(engine, ["LIVEACTIVITY_MAX_REGISTRATIONS": "1"]))
        let client = wakeClient(stack, policy: WakeRetryPolicy(maximumAttempts: 3, maximumWait: 1, firstWait: 0.05))
        let held = deviceToken(600)
        try await client.register(deviceToken: held)

        let refused = await clientError { try await client.register(deviceToken: deviceToken(601)) }
        #expect(
            refused == .unavailable(reason: "Registration capacity reached; try again later", retryAfter: nil, attempts: 3))
        #expect(refused?.isTemporary == true)
        #expect(loggedRequests(stack, "/wakeup", status: 503, expected: 3) == 3, "three attempts, no more")
        #expect(try stack.database.count() == 1)
        // A stored token still refreshes at the cap.
        try await client.register(deviceToken: held, activityType: .debug)
    }

    /// A slot that frees while the client waits is taken by its next attempt.
    @Test(arguments: TestEngine.real)
    func aRetryThatFindsRoomSucceeds(engine: TestEngine) async throws {
        let stack = try LiveStack(with(engine, ["LIVEACTIVITY_MAX_REGISTRATIONS": "1"]))
        let held = deviceToken(610)
        let waiting = deviceToken(611)
        try await wakeClient(stack).register(deviceToken: held)
        let waits = RecordedWaits(during: {
            _ = try? stack.request("POST", "/wakeup/unregister", body: unregisterBody(held.hex))
        })
        let answer = try await wakeClient(stack, waits: waits).register(deviceToken: waiting, interval: 900)
        #expect(answer.interval == 900)
        #expect(waits.seconds == [1], "the policy's first wait: the answer had no Retry-After")
        #expect(try storedRegistration(waiting.hex, in: stack) != nil)
        #expect(loggedRequests(stack, "/wakeup", status: 503, expected: 1) == 1)
    }

    /// With the responder down nginx answers 503 with `Retry-After: 5`: each retry waits that.
    @Test(arguments: TestEngine.real)
    func nginxsRetryAfterIsHonouredWhileTheResponderIsDown(engine: TestEngine) async throws {
        let stack = try LiveStack(engine)
        let token = deviceToken(620)
        try await wakeClient(stack).register(deviceToken: token)
        #expect(stack.responder.stop() == .exited(0))

        let waits = RecordedWaits()
        let refused = await clientError { try await wakeClient(stack, waits: waits).acknowledgeWake(deviceToken: token) }
        #expect(refused == .unavailable(reason: "Service temporarily unavailable; try again later", retryAfter: 5, attempts: 3))
        #expect(waits.seconds == [5, 5])
        #expect(loggedRequests(stack, "/wakeup/ack", status: 503, expected: 3) == 3)
    }

    /// nginx's 429 is its shipped `@rate_limited` answer, `Retry-After: 60`: more than the
    /// standard policy waits in a background wake, so the client throws at once with the value;
    /// a policy that allows a minute waits it before each retry. The 429 comes from a location
    /// of the test's that always refuses (`return 429`, answered by the shipped error page):
    /// the per-client rate itself refills a request a minute, so a test that exhausts it would
    /// depend on how long the machine takes between two requests.
    @Test(arguments: TestEngine.real)
    func aRateLimitLongerThanTheCapIsThrownAtOnceAndWaitedWhenAllowed(engine: TestEngine)
        async throws
    {
        var options = LiveStack.Options(engine: engine)
        options.serverLines = """
            location = /limited/wakeup { return 429; }
                    location = /limited/wakeup/ack { return 429; }
            """
        let stack = try LiveStack(options)
        let token = deviceToken(630)
        let limited = try stack.request("POST", "/limited/wakeup/ack", body: unregisterBody(token.hex))
        try #require(limited.status == 429 && limited.header("Retry-After") == "60", "\(limited)")

        let atOnce = await clientError { try await wakeClient(stack, prefix: "/limited").acknowledgeWake(deviceToken: token) }
        #expect(atOnce == .rateLimited(retryAfter: 60, attempts: 1))
        #expect(
            loggedRequests(stack, "/limited/wakeup/ack", status: 429, expected: 2) == 2, "the test's one and the client's one")

        let waits = RecordedWaits()
        let patient = wakeClient(
            stack, prefix: "/limited", policy: WakeRetryPolicy(maximumAttempts: 3, maximumWait: 60), waits: waits)
        #expect(await clientError { try await patient.register(deviceToken: token) } == .rateLimited(retryAfter: 60, attempts: 3))
        #expect(waits.seconds == [60, 60])
        #expect(loggedRequests(stack, "/limited/wakeup", status: 429, expected: 3) == 3)
        #expect(try stack.database.count() == 0)
    }
}
