import FastCGIWire
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore
@testable import RegistrationService

/// An app's `interval` and `POST /wakeup/ack` through the API function (SPEC 3, issue 16); the
/// refused inputs are rows of the error table (ErrorTableTests).
@Suite struct IntervalAndAckAPITests {
    let database: TestDatabase

    /// The suite's state on `engine`, made afresh by each test case (the engine is its argument).
    init(_ engine: TestEngine) throws { database = try TestDatabase(engine, label: "wakeapi") }

    func api(maximum: Int = 3600) -> RegistrationAPI {
        var configuration = Configuration()
        configuration.intervalPolicy.maximumSeconds = maximum
        return RegistrationAPI(database: database, configuration: configuration)
    }

    func post(_ api: RegistrationAPI, _ body: String, path: String = "/wakeup") -> HTTPResponse {
        api.respond(to: HTTPRequest(method: "POST", path: path, contentType: "application/json", body: Array(body.utf8)))
    }

    func asked(_ seed: Int) throws -> Int? {
        try database.registration(PushToken(validating: sampleToken(seed)))?.requestedInterval
    }

    @Test(arguments: TestEngine.real)
    static func anAskedIntervalIsStoredAndTheAnswerSaysWhatApplies(engine: TestEngine) throws {
        let fixture = try Self(engine)
        let api = fixture.api()
        let fifteen = fixture.post(api, registerBody(sampleToken(1), interval: 900))
        #expect(fifteen.status == 200 && fifteen.bodyText == #"{"success":true,"interval":900}"#)
        #expect(try fixture.asked(1) == 900)
        let decimal = fixture.post(api, #"{"pushToken":"\#(sampleToken(2))","interval":900.0}"#)
        #expect(decimal.bodyText == #"{"success":true,"interval":900}"#, "900.0 is whole seconds")
        #expect(try fixture.asked(2) == 900)
    }

    @Test(arguments: TestEngine.real)
    static func theIntervalIsClampedToTheTypesAndTheMaximum(engine: TestEngine) throws {
        let fixture = try Self(engine)
        let api = fixture.api()
        #expect(fixture.post(api, registerBody(sampleToken(1), interval: 30)).bodyText == #"{"success":true,"interval":300}"#)
        #expect(try fixture.asked(1) == 30, "what the app asked for is kept; the bounds apply when used")
        #expect(
            fixture.post(api, registerBody(sampleToken(2), type: "debug", interval: 1)).bodyText
                == #"{"success":true,"interval":60}"#)
        #expect(
            fixture.post(api, registerBody(sampleToken(3), interval: 86_400)).bodyText == #"{"success":true,"interval":3600}"#)
        let longer = fixture.api(maximum: 7200)
        #expect(
            fixture.post(longer, registerBody(sampleToken(4), interval: 86_400)).bodyText == #"{"success":true,"interval":7200}"#)
        let shorter = fixture.api(maximum: 120)
        #expect(
            fixture.post(shorter, registerBody(sampleToken(5), interval: 900)).bodyText == #"{"success":true,"interval":300}"#,
            "a maximum below the type's interval never pushes more often than the type allows")
    }

    @Test(arguments: TestEngine.real)
    static func withoutAnIntervalTheAnswerIsUnchangedAndARefreshClearsIt(engine: TestEngine) throws {
        let fixture = try Self(engine)
        let api = fixture.api()
        #expect(fixture.post(api, registerBody(sampleToken(1), interval: 900)).status == 200)
        let refresh = fixture.post(api, registerBody(sampleToken(1)))
        #expect(refresh.bodyText == #"{"success":true}"#)
        #expect(try fixture.asked(1) == nil)
        #expect(fixture.post(api, #"{"pushToken":"\#(sampleToken(2))","interval":null}"#).bodyText == #"{"success":true}"#)
        #expect(try fixture.asked(2) == nil)
    }

    @Test(arguments: TestEngine.real)
    static func anAckIsAnsweredAlikeForEveryWellFormedToken(engine: TestEngine) throws {
        let fixture = try Self(engine)
        let api = fixture.api()
        #expect(fixture.post(api, registerBody(sampleToken(1))).status == 200)
        // Pushed once and answered 200 an hour ago: no push is on its way, nothing to match.
        let token = try PushToken(validating: sampleToken(1))
        let registered = try #require(try fixture.database.registration(token)).registeredAt
        let hourAgo = Clock().now() - 3_600_000
        try fixture.database.apply([
            .delivered(.wake(token), selectedRegisteredAt: registered, at: hourAgo, nextPushAt: hourAgo + 4_000_000)
        ])
        let before = try storedRows(fixture.database)
        for body in [
            unregisterBody(sampleToken(1)), unregisterBody(sampleToken(2)), unregisterBody(sampleToken(1).uppercased()),
            #"{"pushToken":"\#(sampleToken(1))","interval":"soon","activityType":7,"environment":{}}"#,
        ] {
            let answer = fixture.post(api, body, path: "/wakeup/ack")
            #expect(answer.status == 200 && answer.bodyText == #"{"success":true}"#, "\(body)")
            #expect(answer.header("Cache-Control") == "no-store" && answer.header("Access-Control-Allow-Origin") == "*")
        }
        #expect(fixture.post(api, unregisterBody(sampleToken(3)), path: "/dev/wakeup/ack").status == 200)
        // Registrations untouched; only the counters moved (nothing matched: the push is too old).
        let after = try storedRows(fixture.database)
        #expect(after.first == before.first && after.count == 2)
        #expect(after.last == "acks unmatched 5")
    }
}
