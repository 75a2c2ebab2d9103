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

    init() throws {
        database = try TestDatabase(label: "api")
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

    @Test func theAppsExactRequestRegisters() throws {
        let response = post(#"{"pushToken":"\#(sampleToken(1))","activityType":"charging"}"#)
        #expect(response.status == 200)
        #expect(response.bodyText == #"{"success":true}"#)
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.header("Cache-Control") == "no-store")
        #expect(response.header("Access-Control-Allow-Origin") == "*")
        let rows = try stored()
        #expect(rows.count == 1)
        #expect(rows.first?.activityType == .charging)
        #expect(rows.first?.environment == .production)
        let row = try #require(rows.first)
        #expect(row.expiresAt - row.registeredAt == 8 * 3_600_000)
    }

    @Test func theTypeDefaultsToChargingAndTheTokenIsStoredLowercase() throws {
        #expect(post(#"{"pushToken":"\#(sampleToken(2).uppercased())"}"#).status == 200)
        #expect(try stored().map(\.token.hex) == [sampleToken(2)])
        #expect(try stored().first?.activityType == .charging)
    }

    @Test func unknownFieldsAndCharsetAreAccepted() throws {
        let response = post(
            #"{"pushToken":"\#(sampleToken(3))","activityType":"debug","extra":{"deep":[1,2]}}"#,
            contentType: "application/json; charset=utf-8")
        #expect(response.status == 200)
        #expect(try stored().first?.activityType == .debug)
    }

    @Test func noContentTypeIsAccepted() {
        #expect(post(#"{"pushToken":"\#(sampleToken(3))"}"#, contentType: nil).status == 200)
    }

    @Test func theEnvironmentComesFromBodyThenParameterThenConfiguration() throws {
        #expect(post(#"{"pushToken":"\#(sampleToken(1))","environment":"development"}"#, parameter: "production").status == 200)
        #expect(post(#"{"pushToken":"\#(sampleToken(2))"}"#, parameter: "sandbox").status == 200)
        #expect(post(#"{"pushToken":"\#(sampleToken(3))"}"#).status == 200)
        #expect(try stored().map(\.environment) == [.sandbox, .sandbox, .production])
    }

    @Test func unregisterIsIdempotent() throws {
        #expect(post(#"{"pushToken":"\#(sampleToken(1))"}"#).status == 200)
        let first = post("/wakeup/unregister", #"{"pushToken":"\#(sampleToken(1))"}"#)
        #expect(first.status == 200 && first.bodyText == #"{"success":true}"#)
        #expect(try stored().isEmpty)
        #expect(post("/wakeup/unregister", #"{"pushToken":"\#(sampleToken(1))"}"#).status == 200)
    }

    @Test func routesWorkUnderAnyPrefix() throws {
        #expect(post("/dev/wakeup", #"{"pushToken":"\#(sampleToken(1))"}"#).status == 200)
        #expect(post("/prod/wakeup/unregister", #"{"pushToken":"\#(sampleToken(1))"}"#).status == 200)
        #expect(try stored().isEmpty)
        let health = api.respond(to: HTTPRequest(method: "GET", path: "/dev/wakeup/health"))
        #expect(health.status == 200)
    }

    @Test func healthCountsRegistrations() {
        _ = post(#"{"pushToken":"\#(sampleToken(1))"}"#)
        _ = post(#"{"pushToken":"\#(sampleToken(2))"}"#)
        let health = api.respond(to: HTTPRequest(method: "GET", path: "/wakeup/health"))
        #expect(health.status == 200)
        #expect(health.bodyText == #"{"status":"ok","registrations":2}"#)
    }

    // MARK: - Errors beyond SPEC section 3's table (ErrorTableTests runs the table)

    @Test func aBodyTheWireFlaggedAsTooLargeIs413() throws {
        expectError(api.respond(to: HTTPRequest(method: "POST", path: "/wakeup", bodyTooLarge: true)), 413)
        #expect(try stored().isEmpty)
    }

    @Test func theCapAnswers503AndEvictsNothing() throws {
        for seed in 1...3 { #expect(post(#"{"pushToken":"\#(sampleToken(seed))"}"#).status == 200) }
        expectError(post(#"{"pushToken":"\#(sampleToken(4))"}"#), 503, containing: "capacity")
        #expect(try stored().map(\.token.hex) == (1...3).map(sampleToken))
        #expect(post(#"{"pushToken":"\#(sampleToken(2))","activityType":"debug"}"#).status == 200, "a refresh is not a new row")
        #expect(logged.get().contains { $0.contains("LIVEACTIVITY_MAX_REGISTRATIONS") })
    }

    @Test func anUnusableDatabaseIs503WithoutInternals() throws {
        let broken = RegistrationAPI(database: try TestDatabase.unusable(in: database.folder))
        let response = broken.respond(
            to: HTTPRequest(
                method: "POST", path: "/wakeup", contentType: "application/json",
                body: Array(#"{"pushToken":"\#(sampleToken(1))"}"#.utf8)))
        expectError(response, 503)
        #expect(!response.bodyText.contains("SQLite"))
        #expect(!response.bodyText.contains("missing-folder"))
        expectError(broken.respond(to: HTTPRequest(method: "GET", path: "/wakeup/health")), 503)
    }

    @Test func aBadLocationParameterIsAnInternalFaultNotAClientError() throws {
        let response = post(#"{"pushToken":"\#(sampleToken(1))"}"#, parameter: "staging")
        expectError(response, 500)
        #expect(try stored().isEmpty)
        #expect(logged.get().contains { $0.contains("LIVEACTIVITY_APNS_ENVIRONMENT") })
    }

    @Test func garbageNeverCrashesAndChangesNothing() throws {
        #expect(post(#"{"pushToken":"\#(sampleToken(9))"}"#).status == 200)
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
            let response = api.respond(
                to: HTTPRequest(method: "POST", path: "/wakeup", contentType: "application/json", body: body))
            #expect(response.status == 400 || response.status == 413)
        }
        #expect(try stored().map(\.token.hex) == [sampleToken(9)])
    }
}
