import FastCGIWire
import Foundation
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import RegistrationService

/// The one-line-a-minute limit of a repeated condition measures time on the monotonic clock
/// (issue 26 point 8): a step of the wall clock neither silences the log nor lets a flood through.
/// Two APIs sharing one `FaultLog` stand for one process before and after the wall clock stepped
/// (the clock offset tests use); the time between them passes for real.
@Suite struct LogLimitClockStepTests {
    let database: TestDatabase
    let logged = LockedBox<[String]>([])

    /// The suite's state on `engine`, made afresh by each test case (the engine is its argument).
    init(_ engine: TestEngine) throws { database = try TestDatabase(engine, label: "log-limit-step") }

    func api(_ faults: FaultLog, wallClockStep seconds: Int64) -> RegistrationAPI {
        var configuration = Configuration()
        configuration.clock = Clock(offsetMilliseconds: seconds * 1000)
        let box = logged
        return RegistrationAPI(
            database: database, configuration: configuration, faults: faults, log: { line in box.update { $0.append(line) } })
    }

    /// A registration through an nginx location whose environment parameter names none: 500 and a line.
    func postWithABadParameter(_ api: RegistrationAPI) -> Int {
        api.respond(
            to: HTTPRequest(
                method: "POST", path: "/wakeup", contentType: "application/json",
                body: Array(#"{"pushToken":"\#(sampleToken(1))"}"#.utf8),
                parameters: RequestParameters(["LIVEACTIVITY_APNS_ENVIRONMENT": "staging"]))
        ).status
    }

    var reported: Int { logged.get().filter { $0.contains("LIVEACTIVITY_APNS_ENVIRONMENT=\"staging\"") }.count }

    @Test(arguments: TestEngine.real)
    static func aBackwardStepOfTheWallClockDoesNotSilenceTheLog(engine: TestEngine) throws {
        let fixture = try Self(engine)
        let faults = FaultLog(repeatSeconds: 1)
        #expect(fixture.postWithABadParameter(fixture.api(faults, wallClockStep: 0)) == 500)
        #expect(fixture.reported == 1)
        // More than the period passes; meanwhile the wall clock went back an hour.
        usleep(1_200_000)
        #expect(fixture.postWithABadParameter(fixture.api(faults, wallClockStep: -3600)) == 500)
        #expect(fixture.reported == 2, "the condition was silenced by the step: \(fixture.logged.get())")
    }

    @Test(arguments: TestEngine.real)
    static func aForwardStepOfTheWallClockDoesNotLetALineThroughEarly(engine: TestEngine) throws {
        let fixture = try Self(engine)
        let faults = FaultLog(repeatSeconds: 60)
        #expect(fixture.postWithABadParameter(fixture.api(faults, wallClockStep: 0)) == 500)
        #expect(fixture.postWithABadParameter(fixture.api(faults, wallClockStep: 3600)) == 500)
        #expect(fixture.reported == 1, "a line came within the minute: \(fixture.logged.get())")
    }
}
