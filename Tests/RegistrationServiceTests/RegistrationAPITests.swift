import FastCGIWire
import LiveActivityDomain
import TestSupport
import Testing

@testable import LiveActivityStore
@testable import RegistrationService

/// SPEC section 3 through the API function itself (no transport): what succeeds, and the errors
/// that need more than one request (the error table's rows are in ErrorTableTests).
@Suite struct RegistrationAPITests {
    let database: TestDatabase
    let api: RegistrationAPI
    let logged = LockedBox<[String]>([])

    /// The suite's state on `engine`, made afresh by each test case (the engine is its argument).
    init(_ engine: TestEngine) throws {
        database = try TestDatabase(engine, label: "api")
        var configuration = Configuration()
        configuration.maxRegistrations = 3
        configuration.defaultEnvironment = .production
        let box = logged
        api = RegistrationAPI(database: database, configuration: configuration, log: { line in box.update { $0.append(line) } })
    }

    func post(_ body: String, contentType: String? = "application/json", parameter: String? = nil) -> HTTPResponse {
        post("/wakeup", body, contentType: contentType, parameter: parameter)
    }

    func post(_ path: String, _ body: String, contentType: String? = "application/json", parameter: String? = nil) -> HTTPResponse
    {
        api.respond(
            to: HTTPRequest(
                method: "POST", path: path, contentType: contentType, body: Array(body.utf8),
                parameters: RequestParameters(parameter.map { ["LIVEACTIVITY_APNS_ENVIRONMENT": $0] } ?? [:])))
    }

    func stored() throws -> [Registration] {
        try database.reading { _ in }  // migrated, as the responder leaves it
        return try database.rows(
            "SELECT registration_token FROM push_targets WHERE push_kind = 'wake' ORDER BY registration_token"
        ).compactMap { row in
            try database.registration(PushToken(trusted: row[0] ?? ""))
        }
    }

    func expectError(
        _ response: HTTPResponse, _ status: Int, containing text: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.status == status, sourceLocation: sourceLocation)
        #expect(response.header("Content-Type") == "application/json", sourceLocation: sourceLocation)
        #expect(response.bodyText.hasPrefix("{\"error\":\""), "body: \(response.bodyText)", sourceLocation: sourceLocation)
        if let text { #expect(response.bodyText.contains(text), "body: \(response.bodyText)", sourceLocation: sourceLocation) }
    }

    // MARK: - Success

    @Test(arguments: TestEngine.real)
    static func theAppsExactRequestRegisters(engine: TestEngine) throws {
        let fixture = try Self(engine)
        let response = fixture.post(#"{"pushToken":"\#(sampleToken(1))","activityType":"charging"}"#)
        #expect(response.status == 200)
        #expect(response.bodyText == #"{"success":true}"#)
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.header("Cache-Control") == "no-store")
        #expect(response.header("Access-Control-Allow-Origin") == "*")
        let rows = try fixture.stored()
        #expect(rows.count == 1)
        #expect(rows.first?.activityType == .charging)
        #expect(rows.first?.environment == .production)
        let row = try #require(rows.first)
        #expect(row.expiresAt - row.registeredAt == 8 * 3_600_000)
    }

    @Test(arguments: TestEngine.real)
    static func theTypeDefaultsToChargingAndTheTokenIsStoredLowercase(engine: TestEngine) throws {
        let fixture = try Self(engine)
        #expect(fixture.post(#"{"pushToken":"\#(sampleToken(2).uppercased())"}"#).status == 200)
        #expect(try fixture.stored().map(\.token.hex) == [sampleToken(2)])
        #expect(try fixture.stored().first?.activityType == .charging)
    }

    @Test(arguments: TestEngine.real)
    static func unknownFieldsAndCharsetAreAccepted(engine: TestEngine) throws {
        let fixture = try Self(engine)
        let response = fixture.post(
            #"{"pushToken":"\#(sampleToken(3))","activityType":"debug","extra":{"deep":[1,2]}}"#,
            contentType: "application/json; charset=utf-8")
        #expect(response.status == 200)
        #expect(try fixture.stored().first?.activityType == .debug)
    }

    @Test(arguments: TestEngine.real)
    static func noContentTypeIsAccepted(engine: TestEngine) throws {
        let fixture = try Self(engine)
        #expect(fixture.post(#"{"pushToken":"\#(sampleToken(3))"}"#, contentType: nil).status == 200)
    }

    @Test(arguments: TestEngine.real)
    static func theEnvironmentComesFromBodyThenParameterThenConfiguration(engine: TestEngine) throws {
        let fixture = try Self(engine)
        #expect(
            fixture.post(#"{"pushToken":"\#(sampleToken(1))","environment":"development"}"#, parameter: "production").status
                == 200)
        #expect(fixture.post(#"{"pushToken":"\#(sampleToken(2))"}"#, parameter: "sandbox").status == 200)
        #expect(fixture.post(#"{"pushToken":"\#(sampleToken(3))"}"#).status == 200)
        #expect(try fixture.stored().map(\.environment) == [.sandbox, .sandbox, .production])
    }

    @Test(arguments: TestEngine.real)
    static func unregisterIsIdempotent(engine: TestEngine) throws {
        let fixture = try Self(engine)
        #expect(fixture.post(#"{"pushToken":"\#(sampleToken(1))"}"#).status == 200)
        let first = fixture.post("/wakeup/unregister", #"{"pushToken":"\#(sampleToken(1))"}"#)
        #expect(first.status == 200 && first.bodyText == #"{"success":true}"#)
        #expect(try fixture.stored().isEmpty)
        #expect(fixture.post("/wakeup/unregister", #"{"pushToken":"\#(sampleToken(1))"}"#).status == 200)
    }

    @Test(arguments: TestEngine.real)
    static func routesWorkUnderAnyPrefix(engine: TestEngine) throws {
        let fixture = try Self(engine)
        #expect(fixture.post("/dev/wakeup", #"{"pushToken":"\#(sampleToken(1))"}"#).status == 200)
        #expect(fixture.post("/prod/wakeup/unregister", #"{"pushToken":"\#(sampleToken(1))"}"#).status == 200)
        #expect(try fixture.stored().isEmpty)
        let health = fixture.api.respond(to: HTTPRequest(method: "GET", path: "/dev/wakeup/health"))
        #expect(health.status == 200)
    }

    @Test(arguments: TestEngine.real)
    static func healthCountsRegistrations(engine: TestEngine) throws {
        let fixture = try Self(engine)
        _ = fixture.post(#"{"pushToken":"\#(sampleToken(1))"}"#)
        _ = fixture.post(#"{"pushToken":"\#(sampleToken(2))"}"#)
        let health = fixture.api.respond(to: HTTPRequest(method: "GET", path: "/wakeup/health"))
        #expect(health.status == 200)
        #expect(health.bodyText == #"{"status":"ok","registrations":2}"#)
    }

    // MARK: - Errors beyond SPEC section 3's table (ErrorTableTests runs the table)

    @Test(arguments: TestEngine.real)
    static func aBodyTheWireFlaggedAsTooLargeIs413(engine: TestEngine) throws {
        let fixture = try Self(engine)
        fixture.expectError(fixture.api.respond(to: HTTPRequest(method: "POST", path: "/wakeup", bodyTooLarge: true)), 413)
        #expect(try fixture.stored().isEmpty)
    }

    @Test(arguments: TestEngine.real)
    static func theCapAnswers503AndEvictsNothing(engine: TestEngine) throws {
        let fixture = try Self(engine)
        for seed in 1...3 { #expect(fixture.post(#"{"pushToken":"\#(sampleToken(seed))"}"#).status == 200) }
        fixture.expectError(fixture.post(#"{"pushToken":"\#(sampleToken(4))"}"#), 503, containing: "capacity")
        #expect(try fixture.stored().map(\.token.hex) == (1...3).map(sampleToken))
        #expect(
            fixture.post(#"{"pushToken":"\#(sampleToken(2))","activityType":"debug"}"#).status == 200,
            "a refresh is not a new row")
        #expect(fixture.logged.get().contains { $0.contains("LIVEACTIVITY_MAX_REGISTRATIONS") })
    }

    @Test(arguments: TestEngine.real)
    static func anUnusableDatabaseIs503WithoutInternals(engine: TestEngine) throws {
        let fixture = try Self(engine)
        let broken = RegistrationAPI(database: try TestDatabase.unusable(engine, in: fixture.database.folder))
        let response = broken.respond(
            to: HTTPRequest(
                method: "POST", path: "/wakeup", contentType: "application/json",
                body: Array(#"{"pushToken":"\#(sampleToken(1))"}"#.utf8)))
        fixture.expectError(response, 503)
        #expect(!response.bodyText.contains("SQLite"))
        #expect(!response.bodyText.contains("missing-folder"))
        fixture.expectError(broken.respond(to: HTTPRequest(method: "GET", path: "/wakeup/health")), 503)
    }

    @Test(arguments: TestEngine.real)
    static func aBadLocationParameterIsAnInternalFaultNotAClientError(engine: TestEngine) throws {
        let fixture = try Self(engine)
        let response = fixture.post(#"{"pushToken":"\#(sampleToken(1))"}"#, parameter: "staging")
        fixture.expectError(response, 500)
        #expect(try fixture.stored().isEmpty)
        #expect(fixture.logged.get().contains { $0.contains("LIVEACTIVITY_APNS_ENVIRONMENT") })
    }

    @Test(arguments: TestEngine.real)
    static func garbageNeverCrashesAndChangesNothing(engine: TestEngine) throws {
        let fixture = try Self(engine)
        #expect(fixture.post(#"{"pushToken":"\#(sampleToken(9))"}"#).status == 200)
        var generator = SystemRandomNumberGenerator()
        for round in 0..<200 {
            let body: [UInt8]
            switch round % 4 {
            case 0:
                body = (0..<Int.random(in: 0...4096, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            case 1: body = Array(String(repeating: "[", count: 3000).utf8)
            case 2: body = [0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x00, 0x7d]
            default: body = Array(#"{"pushToken":"\#(sampleToken(1))\u{0000}"}"#.utf8) + [0, 0, 0]
            }
            let response = fixture.api.respond(
                to: HTTPRequest(method: "POST", path: "/wakeup", contentType: "application/json", body: body))
            #expect(response.status == 400 || response.status == 413)
        }
        #expect(try fixture.stored().map(\.token.hex) == [sampleToken(9)])
    }
}
