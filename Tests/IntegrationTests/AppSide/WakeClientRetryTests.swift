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
    @Test func atTheRegistrationCapTheClientRetriesABoundedNumberOfTimesThenThrows() async throws {
        let stack = try LiveStack(with(["LIVEACTIVITY_MAX_REGISTRATIONS": "1"]))
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
    @Test func aRetryThatFindsRoomSucceeds() async throws {
        let stack = try LiveStack(with(["LIVEACTIVITY_MAX_REGISTRATIONS": "1"]))
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
    @Test func nginxsRetryAfterIsHonouredWhileTheResponderIsDown() async throws {
        let stack = try LiveStack()
        let token = deviceToken(620)
        try await wakeClient(stack).register(deviceToken: token)
        #expect(stack.responder.stop() == .exited(0))

        let waits = RecordedWaits()
        let refused = await clientError { try await wakeClient(stack, waits: waits).acknowledgeWake(deviceToken: token) }
        #expect(refused == .unavailable(reason: "Service temporarily unavailable; try again later", retryAfter: 5, attempts: 3))
        #expect(waits.seconds == [5, 5])
        #expect(loggedRequests(stack, "/wakeup/ack", status: 503, expected: 3) == 3)
    }

    /// nginx's per-client limit answers 429 with `Retry-After: 60`, more than the standard
    /// policy waits in a background wake: the client throws at once with the value. A policy
    /// that allows a minute waits it before each retry.
    @Test func aRateLimitLongerThanTheCapIsThrownAtOnceAndWaitedWhenAllowed() async throws {
        let stack = try LiveStack(with([:], rate: "1r/m"))
        let token = deviceToken(630)
        // One request and the burst of 20 pass (the stack's own health checks among them); then
        // this client (127.0.0.1) is over its rate.
        var refusedBefore = 0
        for _ in 0..<25 where refusedBefore == 0 {
            if try stack.request("POST", "/wakeup/ack", body: unregisterBody(token.hex)).status == 429 { refusedBefore = 1 }
        }
        try #require(refusedBefore == 1, "the burst never ran out")

        let atOnce = await clientError { try await wakeClient(stack).acknowledgeWake(deviceToken: token) }
        #expect(atOnce == .rateLimited(retryAfter: 60, attempts: 1))
        #expect(loggedRequests(stack, "/wakeup/ack", status: 429, expected: 2) == 2, "the filler's one and the client's one")

        let waits = RecordedWaits()
        let patient = wakeClient(stack, policy: WakeRetryPolicy(maximumAttempts: 3, maximumWait: 60), waits: waits)
        #expect(await clientError { try await patient.register(deviceToken: token) } == .rateLimited(retryAfter: 60, attempts: 3))
        #expect(waits.seconds == [60, 60])
        #expect(loggedRequests(stack, "/wakeup", status: 429, expected: 3) == 3)
    }
}
