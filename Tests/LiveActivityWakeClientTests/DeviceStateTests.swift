import Foundation
import LiveActivityWakeClient
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The device state (SPEC 3 "Device state") as the client sends it and reads its answer: each
/// request caught by a transport of the test's, which answers as the backend would, so the body
/// is the one URLSession would have carried.
@Suite struct DeviceStateTests {
    let token = DeviceToken(Data(repeating: 0xAB, count: 32))

    /// A client whose requests `transport` catches, in the sandbox (so `environment` is known).
    func client(_ transport: CapturingTransport) -> WakeClient {
        WakeClient(baseURL: URL(string: "https://wakeup.example.org")!, environment: .sandbox, transport: transport)
    }

    // MARK: - What is sent

    @Test func aRegistrationWithoutStateSendsNoStateField() async throws {
        let transport = CapturingTransport()
        try await client(transport).register(deviceToken: token, interval: 900)
        #expect(
            try await transport.bodies() == [
                ["pushToken": .string(token.hex), "activityType": "charging", "environment": "sandbox", "interval": 900]
            ])
    }

    @Test func aRegistrationSendsEachStateFieldBySPEC3sName() async throws {
        let transport = CapturingTransport()
        let state = DeviceState(activities: 2, backgroundRefresh: .denied, lowPower: true)
        try await client(transport).register(deviceToken: token, deviceState: state)
        #expect(
            try await transport.bodies() == [
                [
                    "pushToken": .string(token.hex), "activityType": "charging", "environment": "sandbox", "activities": 2,
                    "backgroundRefresh": "denied", "lowPower": true,
                ]
            ])
    }

    /// An unknown field is left out, so the backend keeps what it knew; `false` is a value, sent.
    @Test func onlyTheFieldsTheAppKnowsAreSent() async throws {
        let transport = CapturingTransport()
        try await client(transport).register(deviceToken: token, deviceState: DeviceState(lowPower: false))
        try await client(transport).register(deviceToken: token, deviceState: DeviceState())
        try await client(transport).acknowledgeWake(deviceToken: token, deviceState: DeviceState(backgroundRefresh: .available))
        let base: [String: JSONScalar] = ["pushToken": .string(token.hex), "activityType": "charging", "environment": "sandbox"]
        #expect(
            try await transport.bodies() == [
                base.merging(["lowPower": false]) { $1 }, base,
                ["pushToken": .string(token.hex), "backgroundRefresh": "available"],
            ])
    }

    @Test func anAckWithoutStateIsTheTokenAlone() async throws {
        let transport = CapturingTransport()
        try await client(transport).acknowledgeWake(deviceToken: token)
        #expect(try await transport.bodies() == [["pushToken": .string(token.hex)]])
        #expect(await transport.requests.first?.url?.absoluteString == "https://wakeup.example.org/wakeup/ack")
    }

    @Test func anAckCarriesTheStateAndChanged() async throws {
        let transport = CapturingTransport()
        let state = DeviceState(activities: 1, backgroundRefresh: .restricted, lowPower: false)
        try await client(transport).acknowledgeWake(deviceToken: token, deviceState: state, changed: true)
        // The wake that found no activity: it says so, and nothing else.
        try await client(transport).acknowledgeWake(deviceToken: token, deviceState: DeviceState(activities: 0))
        try await client(transport).acknowledgeWake(deviceToken: token, changed: false)
        #expect(
            try await transport.bodies() == [
                [
                    "pushToken": .string(token.hex), "activities": 1, "backgroundRefresh": "restricted", "lowPower": false,
                    "changed": true,
                ],
                ["pushToken": .string(token.hex), "activities": 0],
                ["pushToken": .string(token.hex), "changed": false],
            ])
    }

    @Test func theRefreshStatusIsNamedAsUIKitsCases() {
        #expect(BackgroundRefresh.allCases.map(\.rawValue) == ["available", "denied", "restricted"])
    }

    // MARK: - What is refused before sending

    @Test(arguments: [0, -1, 65, Int.max])
    func aRegistrationWithActivitiesOutsideOneToSixtyFourIsNotSent(_ activities: Int) async {
        let transport = CapturingTransport()
        let refused = await #expect(throws: WakeClientError.self) {
            try await client(transport).register(deviceToken: token, deviceState: DeviceState(activities: activities))
        }
        guard case .invalidDeviceState(let reason) = refused else {
            Issue.record("\(String(describing: refused))")
            return
        }
        #expect(reason == "activities must be a whole number from 1 to 64 at registration, not \(activities)")
        #expect(refused?.isTemporary == false)
        #expect(refused?.description == "not sent: \(reason)")
        #expect(await transport.requests.isEmpty)
    }

    @Test(arguments: [-1, 65])
    func anAckWithActivitiesOutsideZeroToSixtyFourIsNotSent(_ activities: Int) async {
        let transport = CapturingTransport()
        let reason = "activities must be a whole number from 0 to 64, not \(activities)"
        await #expect(throws: WakeClientError.invalidDeviceState(reason: reason)) {
            try await client(transport).acknowledgeWake(deviceToken: token, deviceState: DeviceState(activities: activities))
        }
        #expect(await transport.requests.isEmpty)
    }

    @Test func theBoundsThemselvesAreSent() async throws {
        let transport = CapturingTransport()
        for activities in [1, 64] {
            try await client(transport).register(deviceToken: token, deviceState: DeviceState(activities: activities))
        }
        for activities in [0, 64] {
            try await client(transport).acknowledgeWake(deviceToken: token, deviceState: DeviceState(activities: activities))
        }
        #expect(try await transport.bodies().map { $0["activities"] } == [1, 64, 0, 64])
        #expect(DeviceState.activitiesRange == 0...64)
    }

    // MARK: - What is read

    @Test func aPausedRegistrationSaysWhy() async throws {
        let transport = CapturingTransport(answer: "{\"success\":true,\"paused\":\"backgroundRefresh\",\"interval\":900}")
        let answer = try await client(transport).register(
            deviceToken: token, interval: 900, deviceState: DeviceState(activities: 1, backgroundRefresh: .denied))
        #expect(answer == WakeRegistration(interval: 900, widgetInterval: nil, paused: .backgroundRefresh))
        #expect(answer.paused?.description == "backgroundRefresh")
    }

    @Test func aRegistrationThatIsNotPausedSaysNone() async throws {
        let plain = try await client(CapturingTransport(answer: "{\"success\":true,\"widgetInterval\":3600}"))
            .register(deviceToken: token, deviceState: DeviceState(activities: 1, backgroundRefresh: .available))
        #expect(plain == WakeRegistration(interval: nil, widgetInterval: 3600, paused: nil))
        // Not the API's value: not a pause the app could act on.
        for odd in ["null", "true", "1", "\"\""] {
            let answer = try await client(CapturingTransport(answer: "{\"success\":true,\"paused\":\(odd)}"))
                .register(deviceToken: token)
            #expect(answer.paused == nil, "\(odd)")
        }
    }

    /// A reason a newer backend may add comes through by its name.
    @Test func aPauseReasonThisLibraryDoesNotKnowComesThroughByName() async throws {
        let answer = try await client(CapturingTransport(answer: "{\"success\":true,\"paused\":\"somethingNew\"}"))
            .register(deviceToken: token)
        #expect(answer.paused == WakePauseReason(rawValue: "somethingNew") && answer.paused != .backgroundRefresh)
    }
}

// MARK: - The capture

/// A transport that keeps each request and answers 200 with `answer`, as the backend would.
actor CapturingTransport: WakeTransport {
    private(set) var requests: [URLRequest] = []
    let answer: String

    init(answer: String = "{\"success\":true}") { self.answer = answer }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        requests.append(request)
        let response = HTTPURLResponse(
            url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])!
        return (Data(answer.utf8), response)
    }

    /// Each request's JSON body, field by field.
    func bodies() throws -> [[String: JSONScalar]] {
        try requests.map { try JSONDecoder().decode([String: JSONScalar].self, from: $0.httpBody ?? Data()) }
    }
}

/// A JSON value of a request body as it was written: `true` is not `1`, nor `"1"`.
enum JSONScalar: Decodable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral
{
    case string(String)
    case number(Int)
    case bool(Bool)

    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .number(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .number(value)
        } else {
            self = .string(try container.decode(String.self))
        }
    }
}
