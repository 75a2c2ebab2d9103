import FastCGIWire
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import RegistrationService

/// A condition that repeats per request logs at most one line a minute with a count (SPEC 7,
/// issue 18 point 4), for the whole process: two APIs stand for two workers sharing one
/// `FaultLog`, the second one's monotonic clock a minute ahead.
@Suite struct RepeatedConditionLogTests {
    let database: TestDatabase
    let faults = FaultLog()
    let logged = LockedBox<[String]>([])

    /// The suite's state on `engine`, made afresh by each test case (the engine is its argument).
    init(_ engine: TestEngine) throws { database = try TestDatabase(engine, label: "repeated") }

    func api(minutesLater minutes: Int64 = 0) -> RegistrationAPI {
        var configuration = Configuration()
        configuration.maxRegistrations = 2
        let box = logged
        return RegistrationAPI(
            database: database, configuration: configuration, faults: faults,
            elapsed: MonotonicClock(offsetMilliseconds: minutes * 60_000), log: { line in box.update { $0.append(line) } })
    }

    func post(_ api: RegistrationAPI, _ seed: Int, parameter: String? = nil) -> Int {
        api.respond(
            to: HTTPRequest(
                method: "POST", path: "/wakeup", contentType: "application/json",
                body: Array(#"{"pushToken":"\#(sampleToken(seed))"}"#.utf8),
                parameters: RequestParameters(parameter.map { ["LIVEACTIVITY_APNS_ENVIRONMENT": $0] } ?? [:]))
        ).status
    }

    func lines(containing text: String) -> [String] { logged.get().filter { $0.contains(text) } }

    @Test(arguments: TestEngine.real) static func fourHundredRefusalsAtTheCapAreOneLineAndTheCountComesAMinuteLater(
        engine: TestEngine
    ) throws {
        let fixture = try Self(engine)
        let first = fixture.api()
        #expect(fixture.post(first, 1) == 200 && fixture.post(first, 2) == 200)
        let statuses = (0..<400).map { fixture.post(first, 100 + $0) }
        #expect(statuses.allSatisfy { $0 == 503 })
        #expect(fixture.lines(containing: "registration refused").count == 1, "\(fixture.logged.get().count) lines")

        let minuteLater = fixture.api(minutesLater: 1)
        #expect(fixture.post(minuteLater, 600) == 503)
        let refusals = fixture.lines(containing: "registration refused")
        #expect(refusals.count == 2)
        #expect(
            refusals.last?.hasSuffix("(LIVEACTIVITY_MAX_REGISTRATIONS) (and 399 more since the last line)") == true, "\(refusals)"
        )
    }

    @Test(arguments: TestEngine.real)
    static func aBadEnvironmentParameterIsOneLineAMinute(engine: TestEngine) throws {
        let fixture = try Self(engine)
        let worker = fixture.api()
        let statuses = (0..<50).map { fixture.post(worker, 1 + $0, parameter: "staging") }
        #expect(statuses.allSatisfy { $0 == 500 })
        #expect(fixture.lines(containing: "LIVEACTIVITY_APNS_ENVIRONMENT=\"staging\"").count == 1, "\(fixture.logged.get())")
        #expect(fixture.post(fixture.api(minutesLater: 1), 99, parameter: "staging") == 500)
        #expect(fixture.lines(containing: "(and 49 more since the last line)").count == 1, "\(fixture.logged.get())")
    }

    @Test(arguments: TestEngine.real)
    static func eachConditionHasItsOwnMinute(engine: TestEngine) throws {
        let fixture = try Self(engine)
        let worker = fixture.api()
        #expect(fixture.post(worker, 1) == 200 && fixture.post(worker, 2) == 200 && fixture.post(worker, 3) == 503)
        #expect(fixture.post(worker, 4, parameter: "staging") == 500)
        #expect(fixture.lines(containing: "registration refused").count == 1)
        #expect(fixture.lines(containing: "is not production or sandbox").count == 1)
    }
}
