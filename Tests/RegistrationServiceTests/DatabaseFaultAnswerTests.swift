import FastCGIWire
import Foundation
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore
@testable import RegistrationService

/// How the API answers storage's faults: a status without internals, and one line that says why.
@Suite struct DatabaseFaultAnswerTests {
    /// SPEC section 3: 503 for every database fault - busy, full, unreadable, corrupt, too new -
    /// whether it passes by itself (5, 6, 8, 10, 13, 14) or needs the operator (1, 11, 26).
    @Test(arguments: [Int32(5), 6, 8, 10, 13, 14, 1, 11, 26])
    func everyDatabaseFaultIs503(code: Int32) throws {
        let fault = try #require(DatabaseFault(SQLiteError(code: code, message: "m")))
        #expect(RegistrationAPI.answer(to: fault) == .unavailable)
    }

    @Test func aDatabaseFromANewerBuildIs503WithOneLineNamingIt() throws {
        let folder = TemporaryDirectory("newer")
        var configuration = Configuration()
        configuration.databasePath = folder.file("db.sqlite")
        do {
            let newer = try SQLiteConnection(path: configuration.databasePath)
            try newer.execute("PRAGMA user_version = \(Schema.currentVersion + 1)")
        }
        let logged = LockedBox<[String]>([])
        let api = RegistrationAPI(configuration: configuration, log: { line in logged.update { $0.append(line) } })

        let health = api.respond(to: HTTPRequest(method: "GET", path: "/wakeup/health"))
        let register = api.respond(
            to: HTTPRequest(
                method: "POST", path: "/wakeup", contentType: "application/json",
                body: Array(#"{"pushToken":"\#(sampleToken(1))"}"#.utf8)))

        #expect(health == APIError.unavailable.response)
        #expect(register == APIError.unavailable.response)
        #expect(
            logged.get() == [
                "database error: schema too new: \(configuration.databasePath): database schema version \(Schema.currentVersion + 1) is newer than this build (\(Schema.currentVersion)); run the newer build that wrote it, or restore a backup this build made; requests answer 503 until it is fixed"
            ])
    }
}
