import FastCGIWire
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore
@testable import RegistrationService

/// Several apps through the API function (SPEC 3 `LIVEACTIVITY_APP`, SPEC 6): the nginx location
/// names the app; a registration belongs to its app (the same token under two apps is two
/// registrations), each app has its own environments and caps, and an app the operator did not
/// configure is a 400 listing those served that stores nothing.
@Suite struct AppsAPITests {
    let database: TestDatabase
    let logged = LockedBox<[String]>([])
    let other = AppName("other-app")!
    let device = sampleToken(1)

    /// The suite's state on `engine`, made afresh by each test case (the engine is its argument).
    init(_ engine: TestEngine) throws { database = try TestDatabase(engine, label: "appsapi") }

    /// The API with `LIVEACTIVITY_APPS=other-app` and `settings` over it.
    func api(_ settings: [String: String] = [:], cap: Int = 100, unprovenCap: Int = 100) throws -> RegistrationAPI {
        let all = try Settings(environment: ["LIVEACTIVITY_APPS": "other-app"].merging(settings) { $1 })
        var configuration = try Configuration(settings: all)
        try configuration.readApps(all)
        configuration.maxRegistrations = cap
        configuration.maxUnproven = unprovenCap
        let box = logged
        return RegistrationAPI(database: database, configuration: configuration, log: { line in box.update { $0.append(line) } })
    }

    func post(_ api: RegistrationAPI, _ body: String, path: String = "/wakeup", app: String? = nil) -> HTTPResponse {
        api.respond(
            to: HTTPRequest(
                method: "POST", path: path, contentType: "application/json", body: Array(body.utf8),
                parameters: RequestParameters(app.map { [RegistrationAPI.appParameter: $0] } ?? [:])))
    }

    func stored(_ token: String, app: AppName = .defaultApp) throws -> Registration? {
        try database.registration(PushToken(trusted: token), app: app)
    }

    func wakeRows() throws -> [[String?]] {
        try database.reading { _ in }  // migrated, as the responder leaves it
        return try database.rows("SELECT app, registration_token FROM push_targets WHERE push_kind = 'wake' ORDER BY app")
    }

    @Test(arguments: TestEngine.real)
    static func theSameTokenUnderTwoAppsIsTwoRegistrations(engine: TestEngine) throws {
        let fixture = try Self(engine)
        let api = try fixture.api()
        #expect(fixture.post(api, registerBody(fixture.device, environment: "sandbox")).status == 200)
        #expect(fixture.post(api, registerBody(fixture.device, type: "debug"), app: "other-app").status == 200)
        #expect(try fixture.wakeRows() == [["default", fixture.device], ["other-app", fixture.device]])
        #expect(try fixture.stored(fixture.device)?.environment == .sandbox)
        #expect(try fixture.stored(fixture.device)?.app == .defaultApp)
        #expect(try fixture.stored(fixture.device, app: fixture.other)?.activityType == .debug)
        #expect(try fixture.stored(fixture.device, app: fixture.other)?.app == fixture.other)
        #expect(try fixture.database.count() == 2)

        // Each app's unregister takes its own registration only.
        #expect(fixture.post(api, unregisterBody(fixture.device), path: "/wakeup/unregister", app: "other-app").status == 200)
        #expect(try fixture.stored(fixture.device, app: fixture.other) == nil)
        #expect(try fixture.stored(fixture.device)?.environment == .sandbox, "the default app's stays")
        #expect(fixture.post(api, unregisterBody(fixture.device), path: "/wakeup/unregister").status == 200)
        #expect(try fixture.wakeRows().isEmpty)
    }

    @Test(arguments: TestEngine.real)
    static func anEmptyParameterIsTheDefaultApp(engine: TestEngine) throws {
        let fixture = try Self(engine)
        let api = try fixture.api()
        #expect(fixture.post(api, registerBody(fixture.device), app: "").status == 200)
        #expect(try fixture.wakeRows() == [["default", fixture.device]])
    }

    @Test(arguments: TestEngine.real, ["third", "Other-App", "other_app", "default-x", "other-app\n"])
    static func anAppNotConfiguredIsA400ListingTheAppsAndStoresNothing(engine: TestEngine, _ name: String) throws {
        let fixture = try Self(engine)
        let api = try fixture.api()
        for (path, body) in [
            ("/wakeup", registerBody(fixture.device)), ("/wakeup/unregister", unregisterBody(fixture.device)),
            ("/wakeup/ack", unregisterBody(fixture.device)),
        ] {
            let answer = fixture.post(api, body, path: path, app: name)
            #expect(answer.status == 400, "\(path)")
            #expect(answer.bodyText.contains(#""supported":["default","other-app"]"#), "\(answer.bodyText)")
            #expect(answer.bodyText.contains("Unsupported app"), "\(answer.bodyText)")
        }
        #expect(try fixture.wakeRows().isEmpty)
        // One line for the operator, the value escaped, however many requests.
        let lines = fixture.logged.get().filter { $0.contains("LIVEACTIVITY_APP=") }
        #expect(lines.count == 1, "\(fixture.logged.get())")
        #expect(lines.allSatisfy { !$0.contains("\n") })
    }

    @Test(arguments: TestEngine.real)
    static func eachAppHasItsOwnEnvironmentsOrTheDefaultAppsOnes(engine: TestEngine) throws {
        let fixture = try Self(engine)
        let api = try fixture.api([
            "APNS_ENVIRONMENTS": "production,sandbox", "APNS_ENVIRONMENTS_OTHER_APP": "sandbox",
            "APNS_ENVIRONMENT_OTHER_APP": "sandbox",
        ])
        let refused = fixture.post(api, registerBody(fixture.device, environment: "production"), app: "other-app")
        #expect(refused.status == 400)
        // The reason names the setting that would enable it: this app's own.
        #expect(
            refused.bodyText
                == #"{"error":"Unsupported environment: production (the backend's APNS_ENVIRONMENTS_OTHER_APP does not enable it)","supported":["sandbox"]}"#,
            "\(refused.bodyText)")
        #expect(try fixture.wakeRows().isEmpty)
        // Its default environment is its own; the default app's stays production.
        #expect(fixture.post(api, registerBody(fixture.device), app: "other-app").status == 200)
        #expect(fixture.post(api, registerBody(fixture.device)).status == 200)
        #expect(try fixture.stored(fixture.device, app: fixture.other)?.environment == .sandbox)
        #expect(try fixture.stored(fixture.device)?.environment == .production)
        #expect(fixture.post(api, registerBody(sampleToken(2), environment: "production")).status == 200)
    }

    @Test(arguments: TestEngine.real)
    static func aFurtherAppsMalformedEnvironmentIsNamedBySetting(engine: TestEngine) throws {
        let fixture = try Self(engine)
        #expect(
            throws: ConfigurationError.malformed(
                name: "APNS_ENVIRONMENTS_OTHER_APP", expected: "a comma list of production and sandbox")
        ) {
            _ = try fixture.api(["APNS_ENVIRONMENTS_OTHER_APP": "prod"])
        }
        #expect(throws: ConfigurationError.self) { _ = try fixture.api(["APNS_ENVIRONMENTS_OTHER_APP": "sandbox"]) }
    }

    @Test(arguments: TestEngine.real)
    static func theCapsCountPerApp(engine: TestEngine) throws {
        let fixture = try Self(engine)
        let api = try fixture.api(cap: 2, unprovenCap: 1)
        #expect(fixture.post(api, registerBody(sampleToken(1))).status == 200)
        // The default app's unproven cap is reached in production; the other app's is not.
        #expect(fixture.post(api, registerBody(sampleToken(2))).status == 503)
        #expect(fixture.post(api, registerBody(sampleToken(2)), app: "other-app").status == 200)
        #expect(fixture.post(api, registerBody(sampleToken(3)), app: "other-app").status == 503)
        #expect(fixture.post(api, registerBody(sampleToken(3), environment: "sandbox"), app: "other-app").status == 200)
        // The total cap of 2 is the other app's now, and the default app still has room for one.
        #expect(fixture.post(api, registerBody(sampleToken(4), environment: "sandbox"), app: "other-app").status == 503)
        #expect(fixture.post(api, registerBody(sampleToken(4), environment: "sandbox")).status == 200)
        #expect(try fixture.database.count() == 4)
        let lines = fixture.logged.get()
        #expect(lines.contains { $0.contains("in app other-app's production were never answered 200") }, "\(lines)")
        #expect(lines.contains { $0.contains("app other-app holds its cap of 2") }, "\(lines)")
        #expect(lines.contains { $0.contains("registrations in production were never answered 200") }, "\(lines)")
    }

    @Test(arguments: TestEngine.real)
    static func anAckIsJudgedAgainstItsOwnAppsRegistration(engine: TestEngine) throws {
        let fixture = try Self(engine)
        let api = try fixture.api()
        #expect(fixture.post(api, registerBody(fixture.device), app: "other-app").status == 200)
        // The default app has no such registration: unmatched, and the other app's is untouched.
        #expect(fixture.post(api, unregisterBody(fixture.device), path: "/wakeup/ack").status == 200)
        #expect(try fixture.database.rows("SELECT outcome, count FROM ack_totals") == [["unmatched", "1"]])
        #expect(
            try fixture.database.rows("SELECT app, CASE WHEN waiting_ack_at IS NULL THEN 0 ELSE 1 END FROM push_targets") == [
                ["other-app", "0"]
            ])
        // Its own app's ack finds its registration, due, so it waits there for the sweep to judge.
        #expect(fixture.post(api, unregisterBody(fixture.device), path: "/wakeup/ack", app: "other-app").status == 200)
        #expect(
            try fixture.database.rows("SELECT app, CASE WHEN waiting_ack_at IS NULL THEN 0 ELSE 1 END FROM push_targets") == [
                ["other-app", "1"]
            ])
        #expect(try fixture.database.rows("SELECT outcome, count FROM ack_totals") == [["unmatched", "1"]])
    }
}
