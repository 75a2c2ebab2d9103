import Foundation
import LiveActivityDomain
import LiveActivityWakeClient
import TestSupport
import Testing

/// The app's library against the real system: URLSession over loopback to real nginx, the real
/// responder over FastCGI and a real database (each engine in its pass), every call and every
/// answer SPEC 3 has for it.
@Suite("Wake client through nginx")
struct WakeClientThroughNginxTests {
    @Test(arguments: TestEngine.real)
    func registersRefreshesAcknowledgesAndUnregistersTheDeviceToken(engine: TestEngine)
        async throws
    {
        let stack = try LiveStack(engine)
        let client = wakeClient(stack)
        let token = deviceToken(500)

        let first = try await client.register(deviceToken: token, interval: 900)
        #expect(first == WakeRegistration(interval: 900, widgetInterval: nil))
        var row = try #require(try storedRegistration(token.hex, in: stack))
        #expect(row.activityType == .charging && row.requestedInterval == 900)
        // This test is compiled as the library is, so its build decides as the library's did.
        #expect(row.environment == (WakeEnvironment.buildDefault == .sandbox ? .sandbox : .production))

        // A refresh replaces the registration: another type, no interval (the answer says none).
        let refreshed = try await client.register(deviceToken: token, activityType: .debug)
        #expect(refreshed == WakeRegistration(interval: nil, widgetInterval: nil))
        row = try #require(try storedRegistration(token.hex, in: stack))
        #expect(row.activityType == .debug && row.requestedInterval == nil)
        // Asked shorter than the type's interval: the backend says what applies.
        #expect(try await client.register(deviceToken: token, interval: 60).interval == 300)
        #expect(try stack.database.count() == 1)

        try await client.acknowledgeWake(deviceToken: token)
        #expect(try ackWaits(on: token.hex, in: stack), "due for its first push: the ack waits for it")

        try await client.unregister(deviceToken: token)
        #expect(try storedRegistration(token.hex, in: stack) == nil)
        try await client.unregister(deviceToken: token)  // idempotent
        #expect(loggedRequests(stack, "/wakeup", status: 200, expected: 3) == 3)
        #expect(loggedRequests(stack, "/wakeup/ack", status: 200, expected: 1) == 1)
        #expect(loggedRequests(stack, "/wakeup/unregister", status: 200, expected: 2) == 2)
    }

    @Test(arguments: TestEngine.real) func thePrefixReachesItsLocationAndTheEnvironmentIsTheClientsOrTheLocations(
        engine: TestEngine
    ) async throws {
        let stack = try LiveStack(engine)
        let viaProd = deviceToken(510)
        let viaDev = deviceToken(511)
        let told = deviceToken(512)
        try await wakeClient(stack, prefix: "/prod", environment: .backendChooses).register(deviceToken: viaProd)
        try await wakeClient(stack, prefix: "dev/", environment: .backendChooses).register(deviceToken: viaDev)
        try await wakeClient(stack, prefix: "/dev", environment: .production).register(deviceToken: told)
        #expect(try storedRegistration(viaProd.hex, in: stack)?.environment == .production)
        #expect(try storedRegistration(viaDev.hex, in: stack)?.environment == .sandbox)
        #expect(try storedRegistration(told.hex, in: stack)?.environment == .production, "the body wins over the location")
        try await wakeClient(stack, prefix: "/dev").acknowledgeWake(deviceToken: viaDev)
        try await wakeClient(stack, prefix: "/prod").unregister(deviceToken: viaProd)
        #expect(try stack.database.count() == 2)
        #expect(loggedRequests(stack, "/dev/wakeup/ack", status: 200, expected: 1) == 1)
        #expect(loggedRequests(stack, "/prod/wakeup/unregister", status: 200, expected: 1) == 1)
    }

    /// Each 400 comes back as `badRequest` with the backend's own reason and, where it has one,
    /// its `supported` list; none changes what is stored, and none is retried.
    @Test(arguments: TestEngine.real)
    func every400ComesBackWithTheBackendsReasonAndChangesNothing(engine: TestEngine)
        async throws
    {
        let stack = try LiveStack(with(engine, ["APNS_ENVIRONMENTS": "production"]))
        let client = wakeClient(stack, environment: .production)
        let seed = deviceToken(520)
        try await client.register(deviceToken: seed)
        let before = try snapshot(of: stack)
        let cases: [(String, () async throws -> Void, WakeClientError)] = [
            (
                "unsupported type", { try await client.register(deviceToken: seed, activityType: "parking") },
                .badRequest(reason: "Unsupported activityType: parking", supported: ["charging", "debug"])
            ),
            (
                "environment not enabled", { try await wakeClient(stack, environment: .sandbox).register(deviceToken: seed) },
                .badRequest(
                    reason: "Unsupported environment: sandbox (the backend's APNS_ENVIRONMENTS does not enable it)",
                    supported: ["production"])
            ),
            (
                "interval out of range", { try await client.register(deviceToken: seed, interval: 0) },
                .badRequest(reason: "interval must be whole seconds from 1 to 86400", supported: nil)
            ),
            (
                "token too short", { try await client.register(deviceToken: deviceToken(521, length: 62)) },
                .badRequest(reason: "pushToken is too short (at least 64 hex characters)", supported: nil)
            ),
            (
                "ack with a token too long", { try await client.acknowledgeWake(deviceToken: deviceToken(522, length: 202)) },
                .badRequest(reason: "pushToken is too long (at most 200 hex characters)", supported: nil)
            ),
            (
                "unregister with a token too short",
                { try await client.unregister(deviceToken: DeviceToken(hex: "abcd")!) },
                .badRequest(reason: "pushToken is too short (at least 64 hex characters)", supported: nil)
            ),
        ]
        for (name, call, expected) in cases {
            #expect(await clientError(call) == expected, Comment(rawValue: name))
            #expect(try snapshot(of: stack) == before, Comment(rawValue: name))
        }
        #expect(loggedRequests(stack, "/wakeup", status: 400, expected: 4) == 4, "one request each: a 400 is not retried")
    }

    @Test(arguments: TestEngine.real)
    func aWrongPrefixIsNotFoundAndAnAbsurdBodyTooLarge(engine: TestEngine) async throws {
        let stack = try LiveStack(engine)
        let token = deviceToken(530)
        #expect(await clientError { try await wakeClient(stack, prefix: "/staging").register(deviceToken: token) } == .notFound)
        #expect(
            await clientError { try await wakeClient(stack, prefix: "/staging").acknowledgeWake(deviceToken: token) } == .notFound
        )
        let huge = WakeActivityType(rawValue: String(repeating: "x", count: 5000))
        #expect(
            await clientError { try await wakeClient(stack).register(deviceToken: token, activityType: huge) } == .payloadTooLarge
        )
        #expect(try stack.database.count() == 0)
        #expect(loggedRequests(stack, "/staging/wakeup", status: 404, expected: 1) == 1)
        #expect(loggedRequests(stack, "/wakeup", status: 413, expected: 1) == 1)
    }

    /// The widget extension's token and interval go in the body as SPEC 3 names them; the
    /// backend stores a widgets target beside the wake target and answers the interval that
    /// applies; a registration without the token removes it again.
    @Test(arguments: TestEngine.real)
    func theWidgetTokenRidesWithTheRegistration(engine: TestEngine) async throws {
        let stack = try LiveStack(engine)
        let client = wakeClient(stack)
        let token = deviceToken(540)
        let widget = deviceToken(541)
        let answer = try await client.register(deviceToken: token, interval: 900, widgetPushToken: widget, widgetInterval: 3600)
        #expect(answer == WakeRegistration(interval: 900, widgetInterval: 3600))
        let row = try #require(try storedRegistration(token.hex, in: stack))
        #expect(row.requestedInterval == 900)
        #expect(row.target(.widgets)?.token.hex == widget.hex && row.target(.widgets)?.requestedInterval == 3600)
        // Asked for less than the operator's floor (LIVEACTIVITY_INTERVAL_WIDGETS, 1800): the floor applies.
        let floor = try await client.register(deviceToken: token, widgetPushToken: widget, widgetInterval: 60)
        #expect(floor == WakeRegistration(interval: nil, widgetInterval: 1800))
        // The widget removed: the app registers without its token, and its target goes.
        let without = try await client.register(deviceToken: token)
        #expect(without == WakeRegistration(interval: nil, widgetInterval: nil))
        #expect(try storedRegistration(token.hex, in: stack)?.target(.widgets) == nil)
    }

    /// The device state rides with the registration and the ack (what the backend does with it is
    /// its own suites'); a value the backend would refuse is not sent at all.
    @Test(arguments: TestEngine.real)
    func theDeviceStateRidesWithTheRegistrationAndTheAck(engine: TestEngine) async throws {
        let stack = try LiveStack(engine)
        let client = wakeClient(stack)
        let token = deviceToken(560)
        // The library's own values (the backend's domain has types of the same names).
        let running = LiveActivityWakeClient.DeviceState(
            activities: 1, backgroundRefresh: LiveActivityWakeClient.BackgroundRefresh.available, lowPower: false)
        let answer = try await client.register(deviceToken: token, interval: 900, deviceState: running)
        #expect(answer == WakeRegistration(interval: 900, widgetInterval: nil, paused: nil))
        try await client.acknowledgeWake(deviceToken: token, deviceState: running, changed: true)
        #expect(try ackWaits(on: token.hex, in: stack), "the ack with its state is an ack")

        let refused = await clientError {
            try await client.register(deviceToken: token, deviceState: LiveActivityWakeClient.DeviceState(activities: 0))
        }
        #expect(refused == .invalidDeviceState(reason: "activities must be a whole number from 1 to 64 at registration, not 0"))
        #expect(try storedRegistration(token.hex, in: stack)?.requestedInterval == 900, "the refused one changed nothing")
        #expect(loggedRequests(stack, "/wakeup/ack", status: 200, expected: 1) == 1)
        #expect(loggedRequests(stack, "/wakeup", status: 200, expected: 1) == 1, "the refused registration was never sent")
        #expect(loggedRequests(stack, "/wakeup", status: 400, expected: 0) == 0)
    }

    /// Issue 49 point 5: the backend keeps what the library sends, and the library reads the
    /// pause a registration answers with.
    @Test(arguments: TestEngine.real)
    func theBackendKeepsTheStateAndTheLibraryReadsThePause(engine: TestEngine) async throws {
        let stack = try LiveStack(engine)
        let client = wakeClient(stack)
        let token = deviceToken(562)
        let off = LiveActivityWakeClient.DeviceState(
            activities: 2, backgroundRefresh: LiveActivityWakeClient.BackgroundRefresh.denied, lowPower: true)
        let answer = try await client.register(deviceToken: token, deviceState: off)
        #expect(answer.paused == .backgroundRefresh)
        let stored = try #require(try storedRegistration(token.hex, in: stack)).wake.cadence.device
        #expect(stored.activities == 2 && stored.backgroundRefresh == .denied && stored.lowPower == true)
        try await client.acknowledgeWake(
            deviceToken: token, deviceState: LiveActivityWakeClient.DeviceState(activities: 0), changed: false)
        #expect(try storedRegistration(token.hex, in: stack)?.wake.cadence.device.activities == 0)
        let running = try await client.register(
            deviceToken: token,
            deviceState: LiveActivityWakeClient.DeviceState(
                activities: 1, backgroundRefresh: LiveActivityWakeClient.BackgroundRefresh.available))
        #expect(running.paused == nil)
    }

    /// What the client writes about its calls, and what its errors say, never hold a token.
    @Test(arguments: TestEngine.real)
    func noLogLineOrErrorShowsATokenWhole(engine: TestEngine) async throws {
        let stack = try LiveStack(with(engine, ["LIVEACTIVITY_MAX_REGISTRATIONS": "1"]))
        let log = LogLines()
        let client = wakeClient(stack, policy: WakeRetryPolicy(maximumAttempts: 2, maximumWait: 1, firstWait: 0.01), log: log)
        let token = deviceToken(550)
        let other = deviceToken(551)
        try await client.register(deviceToken: token, interval: 900, widgetPushToken: other)
        try await client.acknowledgeWake(deviceToken: token)
        var errors: [WakeClientError] = []
        if let error = await clientError({ try await client.register(deviceToken: other) }) { errors.append(error) }
        if let error = await clientError({ try await client.register(deviceToken: token, activityType: "x") }) {
            errors.append(error)
        }
        try await client.unregister(deviceToken: token)
        #expect(errors.count == 2)
        #expect(log.lines.count >= 6, "\(log.lines)")
        let texts =
            log.lines + errors.map(\.description) + errors.map { String(reflecting: $0) } + errors.compactMap(\.errorDescription)
        for text in texts {
            for hex in [token.hex, other.hex] {
                #expect(!text.contains(hex.prefix(9)), "\(text)")
            }
        }
        #expect(log.lines.contains { $0.contains(token.redacted) })
    }
}
