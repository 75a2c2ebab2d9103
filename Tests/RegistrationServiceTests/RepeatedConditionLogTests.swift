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

    init() throws { database = try TestDatabase(label: "repeated") }

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

    @Test func fourHundredRefusalsAtTheCapAreOneLineAndTheCountComesAMinuteLater() {
        let first = api()
        #expect(post(first, 1) == 200 && post(first, 2) == 200)
        let statuses = (0..<400).map { post(first, 100 + $0) }
        #expect(statuses.allSatisfy { $0 == 503 })
        #expect(lines(containing: "registration refused").count == 1, "\(logged.get().count) lines")

        let minuteLater = api(minutesLater: 1)
        #expect(post(minuteLater, 600) == 503)
        let refusals = lines(containing: "registration refused")
        #expect(refusals.count == 2)
        #expect(
            refusals.last?.hasSuffix("(LIVEACTIVITY_MAX_REGISTRATIONS) (and 399 more since the last line)") == true, "\(refusals)"
        )
    }

    @Test func aBadEnvironmentParameterIsOneLineAMinute() {
        let worker = api()
        let statuses = (0..<50).map { post(worker, 1 + $0, parameter: "staging") }
        #expect(statuses.allSatisfy { $0 == 500 })
        #expect(lines(containing: "LIVEACTIVITY_APNS_ENVIRONMENT=\"staging\"").count == 1, "\(logged.get())")
        #expect(post(api(minutesLater: 1), 99, parameter: "staging") == 500)
        #expect(lines(containing: "(and 49 more since the last line)").count == 1, "\(logged.get())")
    }

    @Test func eachConditionHasItsOwnMinute() {
        let worker = api()
        #expect(post(worker, 1) == 200 && post(worker, 2) == 200 && post(worker, 3) == 503)
        #expect(post(worker, 4, parameter: "staging") == 500)
        #expect(lines(containing: "registration refused").count == 1)
        #expect(lines(containing: "is not production or sandbox").count == 1)
    }
}
