import FastCGIWire
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore
@testable import RegistrationService

/// `widgetPushToken` and `widgetInterval` on `POST /wakeup` (SPEC 3, issue 31) through the API
/// function: a valid one adds a widgets target and the answer says its interval; a bad one is a
/// 400 naming its field that changes nothing stored; an app that sends neither hears exactly what
/// it always heard. What holds for any kind with its own token is tested over `PushKind.others`,
/// by the fields each kind names (`tokenField`, `intervalField`); the widgets' interval bounds
/// by their own names.
@Suite struct WidgetRegistrationAPITests {
    let database: TestDatabase

    /// The suite's state on `engine`, made afresh by each test case (the engine is its argument).
    init(_ engine: TestEngine) throws { database = try TestDatabase(engine, label: "widgetapi") }

    /// The device token every request here registers, and its widget extension's token (or its
    /// target's of another kind).
    let device = sampleToken(1)
    let widget = testToken(31)

    /// The fields of `kind`'s target in the API: its token's and its interval's.
    static func fields(_ kind: PushKind) throws -> (token: String, interval: String) {
        (try #require(kind.tokenField), try #require(kind.intervalField))
    }

    func api(_ settings: [String: String] = [:]) throws -> RegistrationAPI {
        var configuration = Configuration()
        try configuration.readPushIntervals(Settings(environment: settings))
        return RegistrationAPI(database: database, configuration: configuration)
    }

    func post(_ api: RegistrationAPI, _ body: String, path: String = "/wakeup") -> HTTPResponse {
        api.respond(to: HTTPRequest(method: "POST", path: path, contentType: "application/json", body: Array(body.utf8)))
    }

    func stored(_ token: String) throws -> Registration? { try database.registration(PushToken(trusted: token)) }

    // MARK: - Accepted

    @Test(arguments: TestEngine.real, PushKind.others)
    static func anotherKindsTokenAddsItsTargetAndTheAnswerSaysItsInterval(engine: TestEngine, kind: PushKind) throws {
        let fixture = try Self(engine)
        let api = try fixture.api()
        let (_, intervalField) = try fields(kind)
        let answer = fixture.post(api, registerBody(fixture.device, kind, fixture.widget.uppercased()))
        #expect(answer.status == 200)
        let seconds = try #require(kind.defaultIntervalSeconds)
        #expect(
            answer.bodyText == #"{"success":true,"\#(intervalField)":\#(seconds)}"#,
            "\(kind.intervalSetting ?? "its setting")'s default")
        #expect(answer.header("Content-Type") == "application/json" && answer.header("Cache-Control") == "no-store")
        let registration = try #require(try fixture.stored(fixture.device))
        #expect(registration.targets.map(\.kind) == [.wake, kind])
        let target = try #require(registration.target(kind))
        #expect(target.token.hex == fixture.widget, "stored lowercase")
        #expect(target.requestedInterval == nil)
        #expect(registration.target(.wake)?.token.hex == fixture.device)
        #expect(try fixture.database.count() == 1, "one registration")
        let health = api.respond(to: HTTPRequest(method: "GET", path: "/wakeup/health"))
        #expect(health.bodyText == #"{"status":"ok","registrations":1}"#, "the registrations, not their targets")
    }

    @Test(arguments: TestEngine.real)
    static func theWidgetIntervalIsStoredAndAnsweredClampedToTheSettings(engine: TestEngine) throws {
        let fixture = try Self(engine)
        let api = try fixture.api()
        #expect(
            fixture.post(api, registerBody(fixture.device, widget: fixture.widget, widgetInterval: 3600)).bodyText
                == #"{"success":true,"widgetInterval":3600}"#)
        #expect(try fixture.stored(fixture.device)?.target(.widgets)?.requestedInterval == 3600)
        #expect(
            fixture.post(api, registerBody(fixture.device, widget: fixture.widget, widgetInterval: 60)).bodyText
                == #"{"success":true,"widgetInterval":1800}"#,
            "never more often than LIVEACTIVITY_INTERVAL_WIDGETS")
        #expect(try fixture.stored(fixture.device)?.target(.widgets)?.requestedInterval == 60, "what the app asked for is kept")
        #expect(
            fixture.post(api, registerBody(fixture.device, widget: fixture.widget, widgetInterval: 86_400)).bodyText
                == #"{"success":true,"widgetInterval":3600}"#, "never less often than LIVEACTIVITY_INTERVAL_MAX")
        let decimal = fixture.post(
            api, #"{"pushToken":"\#(fixture.device)","widgetPushToken":"\#(fixture.widget)","widgetInterval":2700.0}"#)
        #expect(decimal.bodyText == #"{"success":true,"widgetInterval":2700}"#, "2700.0 is whole seconds")

        let set = try fixture.api(["LIVEACTIVITY_INTERVAL_WIDGETS": "3600", "LIVEACTIVITY_INTERVAL_MAX": "7200"])
        #expect(
            fixture.post(set, registerBody(fixture.device, widget: fixture.widget)).bodyText
                == #"{"success":true,"widgetInterval":3600}"#)
        #expect(
            fixture.post(set, registerBody(fixture.device, widget: fixture.widget, widgetInterval: 1800)).bodyText
                == #"{"success":true,"widgetInterval":3600}"#)
        #expect(
            fixture.post(set, registerBody(fixture.device, widget: fixture.widget, widgetInterval: 86_400)).bodyText
                == #"{"success":true,"widgetInterval":7200}"#)
        let below = try fixture.api(["LIVEACTIVITY_INTERVAL_MAX": "600"])
        #expect(
            fixture.post(below, registerBody(fixture.device, widget: fixture.widget, widgetInterval: 900)).bodyText
                == #"{"success":true,"widgetInterval":1800}"#,
            "a maximum below the widgets' interval never pushes widgets more often than it allows")
    }

    @Test(arguments: TestEngine.real, PushKind.others)
    static func bothIntervalsAreAnsweredWhenBothAreAsked(engine: TestEngine, kind: PushKind) throws {
        let fixture = try Self(engine)
        let api = try fixture.api()
        let (tokenField, intervalField) = try fields(kind)
        let answer = fixture.post(api, registerBody(fixture.device, kind, fixture.widget, otherInterval: 3600, interval: 900))
        #expect(answer.bodyText == #"{"success":true,"interval":900,"\#(intervalField)":3600}"#)
        let registration = try #require(try fixture.stored(fixture.device))
        #expect(registration.target(.wake)?.requestedInterval == 900)
        #expect(registration.target(kind)?.requestedInterval == 3600)
        let seconds = try #require(kind.defaultIntervalSeconds)
        #expect(
            fixture.post(api, #"{"pushToken":"\#(fixture.device)","interval":900,"\#(tokenField)":"\#(fixture.widget)"}"#)
                .bodyText
                == #"{"success":true,"interval":900,"\#(intervalField)":\#(seconds)}"#)
    }

    @Test(arguments: TestEngine.real, PushKind.others)
    static func aBodyWithoutAnotherKindsFieldsAnswersAsBeforeAndARefreshWithoutOneRemovesIt(
        engine: TestEngine, kind: PushKind
    ) throws {
        let fixture = try Self(engine)
        let api = try fixture.api()
        let (tokenField, _) = try fields(kind)
        #expect(fixture.post(api, registerBody(fixture.device, kind, fixture.widget)).status == 200)
        #expect(try fixture.stored(fixture.device)?.targets.map(\.kind) == [.wake, kind])
        let refresh = fixture.post(api, registerBody(fixture.device))
        #expect(refresh.status == 200 && refresh.bodyText == #"{"success":true}"#)
        #expect(
            try fixture.stored(fixture.device)?.targets.map(\.kind) == [.wake],
            "the app sends it while a push widget is installed")
        #expect(fixture.post(api, registerBody(fixture.device, interval: 900)).bodyText == #"{"success":true,"interval":900}"#)
        let null = fixture.post(api, #"{"pushToken":"\#(fixture.device)","\#(tokenField)":null}"#)
        #expect(null.bodyText == #"{"success":true}"#, "null is no token")
        #expect(try fixture.stored(fixture.device)?.targets.map(\.kind) == [.wake])
    }

    @Test(arguments: TestEngine.real, PushKind.others)
    static func anotherKindsIntervalWithoutItsTokenIsIgnored(engine: TestEngine, kind: PushKind) throws {
        let fixture = try Self(engine)
        let api = try fixture.api()
        let (_, intervalField) = try fields(kind)
        let answer = fixture.post(
            api, #"{"pushToken":"\#(fixture.device)","activityType":"charging","\#(intervalField)":3600}"#)
        #expect(answer.status == 200 && answer.bodyText == #"{"success":true}"#)
        #expect(try fixture.stored(fixture.device)?.targets.map(\.kind) == [.wake])
    }

    @Test(arguments: TestEngine.real, PushKind.others)
    static func unregisteringIgnoresAnotherKindsFieldsAndRemovesBothTargets(engine: TestEngine, kind: PushKind) throws {
        let fixture = try Self(engine)
        let api = try fixture.api()
        let (tokenField, intervalField) = try fields(kind)
        #expect(fixture.post(api, registerBody(fixture.device, kind, fixture.widget)).status == 200)
        #expect(try fixture.stored(fixture.device)?.targets.map(\.kind) == [.wake, kind])
        let body = #"{"pushToken":"\#(fixture.device)","\#(tokenField)":7,"\#(intervalField)":"soon"}"#
        let answer = fixture.post(api, body, path: "/wakeup/unregister")
        #expect(answer.status == 200 && answer.bodyText == #"{"success":true}"#)
        #expect(try fixture.stored(fixture.device) == nil)
        #expect(try fixture.database.scalar("SELECT count(*) FROM push_targets") == 0)
        #expect(fixture.post(api, body, path: "/wakeup/ack").status == 200, "an ack ignores them alike")
    }

    // MARK: - Refused

    /// The request's extra JSON members (beside the seed's own `pushToken` and `activityType`
    /// of debug, so a wrong acceptance would change the stored row) and the error they get, for a
    /// target of each other kind, by the fields its kind names.
    static let refusals: [(kind: PushKind, members: String, error: String)] = PushKind.others.flatMap { kind in
        refusals(of: kind).map { (kind, $0.members, $0.error) }
    }

    static func refusals(of kind: PushKind) -> [(members: String, error: String)] {
        let (field, intervalField) = (kind.tokenField ?? "", kind.intervalField ?? "")
        let token = testToken(32)
        var rows: [(String, String)] = [
            (#""\#(field)":"\#(token.dropLast())g""#, "\(field) must contain hex digits only"),
            (#""\#(field)":"\#(token)a""#, "\(field) must have an even number of hex digits"),
            (#""\#(field)":"\#(token.prefix(62))""#, "\(field) is too short (at least 64 hex characters)"),
            (
                #""\#(field)":"\#(String(repeating: "ab", count: 101))""#,
                "\(field) is too long (at most 200 hex characters)"
            ),
            (#""\#(field)":"""#, "\(field) is too short (at least 64 hex characters)"),
            (#""\#(field)":"\#(sampleToken(1))""#, "\(field) must be the extension's own token, not pushToken"),
            (
                #""\#(field)":"\#(sampleToken(1).uppercased())""#,
                "\(field) must be the extension's own token, not pushToken"
            ),
        ]
        for json in ["12345", "true", #"["\#(token)"]"#, "{}"] {
            rows.append((#""\#(field)":\#(json)"#, "\(field) must be a string"))
        }
        let intervalError = "\(intervalField) must be whole seconds from 1 to 86400"
        for json in [#""900""#, "true", "0", "-5", "1.5", "86401", "1e300", "[900]", "{}", "0.0", "-0"] {
            rows.append((#""\#(field)":"\#(token)","\#(intervalField)":\#(json)"#, intervalError))
        }
        return rows
    }

    @Test(arguments: TestEngine.real, refusals.indices)
    static func aBadFieldOfAnotherKindIsA400NamingItAndChangesNothing(engine: TestEngine, _ index: Int) throws {
        let fixture = try Self(engine)
        let (kind, members, error) = Self.refusals[index]
        let api = try fixture.api()
        // The seed: a registration with a target of the kind, as a wrong acceptance could change it.
        #expect(fixture.post(api, registerBody(fixture.device, kind, fixture.widget, otherInterval: 3600)).status == 200)
        let before = try storedRows(fixture.database)
        #expect(before.filter { $0.hasPrefix("\(fixture.device)|") }.count == 2, "its wake and \(kind) targets")

        let body = #"{"pushToken":"\#(fixture.device)","activityType":"debug",\#(members)}"#
        let answer = fixture.post(api, body)
        #expect(answer.status == 400, "\(body)")
        #expect(answer.bodyText == #"{"error":"\#(error)"}"#, "\(body)")
        #expect(answer.header("Content-Type") == "application/json" && answer.header("Access-Control-Allow-Origin") == "*")
        #expect(try storedRows(fixture.database) == before, "\(body)")
    }
}
