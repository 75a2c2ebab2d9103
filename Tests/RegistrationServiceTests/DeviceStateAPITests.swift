import FastCGIWire
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore
@testable import RegistrationService

/// Issue 49 (SPEC 3, "Device state") through the API function: what a registration and an ack
/// report is stored with the wake target, a registration replaces it whole, an ack changes only
/// what it says, and a registration paused by Background App Refresh says so. The refused inputs
/// are rows of the error table (ErrorTableTests); each engine's storing, the store's and the
/// sweep's suites (CadenceSweepTests).
@Suite struct DeviceStateAPITests {
    let database: TestDatabase
    let api: RegistrationAPI

    /// The suite's state on `engine`, made afresh by each test case (the engine is its argument).
    init(_ engine: TestEngine) throws {
        database = try TestDatabase(engine, label: "stateapi")
        api = RegistrationAPI(database: database)
    }

    func post(_ body: String, path: String = "/wakeup") -> HTTPResponse {
        api.respond(to: HTTPRequest(method: "POST", path: path, contentType: "application/json", body: Array(body.utf8)))
    }

    func body(_ seed: Int, _ fields: String) -> String { #"{"pushToken":"\#(sampleToken(seed))",\#(fields)}"# }

    func state(_ seed: Int) throws -> CadenceState? {
        try database.registration(PushToken(validating: sampleToken(seed)))?.wake.cadence
    }

    @Test(arguments: TestEngine.real)
    static func aRegistrationStoresWhatItReportsAndSaysWhenItIsPaused(engine: TestEngine) throws {
        let fixture = try Self(engine)
        let available = fixture.post(fixture.body(1, #""activities":2,"backgroundRefresh":"available","lowPower":false"#))
        #expect(available.status == 200 && available.bodyText == #"{"success":true}"#)
        #expect(
            try fixture.state(1)
                == CadenceState(device: DeviceState(activities: 2, backgroundRefresh: .available, lowPower: false)))
        for refresh in ["denied", "restricted"] {
            let paused = fixture.post(fixture.body(2, #""activities":1,"backgroundRefresh":"\#(refresh)","interval":900"#))
            #expect(paused.bodyText == #"{"success":true,"interval":900,"paused":"backgroundRefresh"}"#, "\(refresh)")
        }
        // Nulls are "not said", as an absent field.
        let nulls = fixture.post(fixture.body(3, #""activities":null,"backgroundRefresh":null,"lowPower":null"#))
        #expect(nulls.bodyText == #"{"success":true}"#)
        #expect(try fixture.state(3) == .base)
    }

    @Test(arguments: TestEngine.real)
    static func aRegistrationReplacesTheStateWholeAndAnAckChangesWhatItSays(engine: TestEngine) throws {
        let fixture = try Self(engine)
        #expect(fixture.post(fixture.body(1, #""activities":2,"backgroundRefresh":"available","lowPower":true"#)).status == 200)
        #expect(fixture.post(fixture.body(1, #""activities":1"#), path: "/wakeup/ack").status == 200)
        #expect(try fixture.state(1)?.device == DeviceState(activities: 1, backgroundRefresh: .available, lowPower: true))
        #expect(fixture.post(fixture.body(1, #""lowPower":false,"changed":false"#), path: "/wakeup/ack").status == 200)
        #expect(try fixture.state(1)?.device == DeviceState(activities: 1, backgroundRefresh: .available, lowPower: false))
        // No push to match: what it said of the data moves nothing.
        #expect(try fixture.state(1)?.unchangedAcks == 0)
        // A registration that says only activities forgets the rest (SPEC 3: replaced whole).
        #expect(fixture.post(fixture.body(1, #""activities":3"#)).bodyText == #"{"success":true}"#)
        #expect(try fixture.state(1) == CadenceState(device: DeviceState(activities: 3)))
        // An ack for a token not registered still answers 200 and stores nothing.
        #expect(fixture.post(fixture.body(9, #""activities":0"#), path: "/wakeup/ack").bodyText == #"{"success":true}"#)
        #expect(try fixture.database.registration(PushToken(validating: sampleToken(9))) == nil)
    }

    /// An app that sends none of it is answered and stored exactly as before.
    @Test(arguments: TestEngine.real)
    static func anAppThatSaysNothingIsServedAsBefore(engine: TestEngine) throws {
        let fixture = try Self(engine)
        #expect(fixture.post(registerBody(sampleToken(1))).bodyText == #"{"success":true}"#)
        #expect(fixture.post(unregisterBody(sampleToken(1)), path: "/wakeup/ack").bodyText == #"{"success":true}"#)
        #expect(try fixture.state(1) == .base)
    }
}
