import FastCGIWire
import Foundation
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore
@testable import RegistrationService

/// How the API answers storage's faults: a status without internals, and one line that says why.
@Suite struct DatabaseFaultAnswerTests {
    /// SPEC section 3: 503 for every database fault, whatever the engine - busy, full,
    /// unreadable, corrupt, too new, unreachable - whether it passes by itself or needs the operator.
    @Test(arguments: [
        StoreFault.Kind.busy, .readOnly, .cannotOpen, .ioError, .full, .corrupt, .notADatabase, .tooNew, .unreachable,
        .authentication, .permissionDenied, .noSuchDatabase, .other(code: "19"),
    ])
    func everyDatabaseFaultIs503(kind: StoreFault.Kind) throws {
        #expect(RegistrationAPI.answer(to: StoreFault(kind, message: "m", advice: "a")) == .unavailable)
    }

    @Test(arguments: TestEngine.real)
    func aDatabaseFromANewerBuildIs503WithOneLineNamingIt(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "newer")
        try database.pretendNewerSchema()
        let logged = LockedBox<[String]>([])
        let api = RegistrationAPI(database: database, log: { line in logged.update { $0.append(line) } })

        let health = api.respond(to: HTTPRequest(method: "GET", path: "/wakeup/health"))
        let register = api.respond(
            to: HTTPRequest(
                method: "POST", path: "/wakeup", contentType: "application/json",
                body: Array(#"{"pushToken":"\#(sampleToken(1))"}"#.utf8)))

        #expect(health == APIError.unavailable.response)
        #expect(register == APIError.unavailable.response)
        let lines = logged.get()
        #expect(lines.count == 1, "\(lines)")
        let line = try #require(lines.first)
        #expect(line.hasPrefix("database error: schema too new: \(database.engine.location): database schema version "))
        #expect(line.contains("is newer than this build"))
        #expect(
            line.hasSuffix(
                "; run the newer build that wrote it, or restore a backup this build made; requests answer 503 until it is fixed")
        )
    }
}
