import FastCGIWire
import Foundation
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityFigures
@testable import LiveActivityStore
@testable import RegistrationService

/// Issue 50 (SPEC 3, `POST /wakeup/diagnostics`) through the API function, on every engine: the
/// answer's shape, the attempts newest first with their ack delays, the hints the history
/// gives (`notWaking` after three unacked 200s), an unknown token, no token nor its prefix nor
/// an apns-id in the answer, another app's location seeing nothing, the per-token limit (429 with
/// `Retry-After`, on a moved monotonic clock), and `history` printing the same hints. Its refused
/// inputs are rows of the error table (`ErrorRow.diagnostics`).
@Suite struct DiagnosticsAPITests {
    static let minute: Int64 = 60_000
    let other = AppName("other-app")!

    /// The API over `database` with `LIVEACTIVITY_APPS=other-app`; `limit` and `elapsed` as the
    /// responder's process shares and moves them.
    func api(
        _ database: TestDatabase, limit: DiagnosticsLimit = DiagnosticsLimit(), elapsed: MonotonicClock = MonotonicClock()
    ) throws -> RegistrationAPI {
        let settings = try Settings(environment: ["LIVEACTIVITY_APPS": "other-app"])
        var configuration = try Configuration(settings: settings)
        try configuration.readApps(settings)
        return RegistrationAPI(database: database, configuration: configuration, diagnosticsLimit: limit, elapsed: elapsed)
    }

    func diagnose(_ api: RegistrationAPI, _ body: String, path: String = "/wakeup/diagnostics", app: String? = nil)
        -> HTTPResponse
    {
        api.respond(
            to: HTTPRequest(
                method: "POST", path: path, contentType: "application/json", body: Array(body.utf8),
                parameters: RequestParameters(app.map { [RegistrationAPI.appParameter: $0] } ?? [:])))
    }

    func object(_ response: HTTPResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any], "\(response.bodyText)")
    }

    func codes(_ answer: [String: Any]) -> [String] {
        ((answer["hints"] as? [[String: Any]]) ?? []).compactMap { $0["code"] as? String }
    }

    func token(_ seed: Int) -> PushToken { PushToken(trusted: sampleToken(seed)) }

    /// Registers `seed` an hour ago (7 hours left), as the responder would have.
    @discardableResult
    func registerAnHourAgo(_ seed: Int, in database: TestDatabase, device: DeviceState = .unknown) throws -> Int64 {
        let registeredAt = Clock().now() - 60 * Self.minute
        try database.register(token(seed), now: registeredAt, device: device)
        return registeredAt
    }

    /// One final answer to a wake push of `seed` at `at`, written as the sweep writes it (with its
    /// outcome, so the row is not due and an ack is judged at once).
    func push(
        _ seed: Int, at: Int64, registeredAt: Int64, status: Int? = 200, reason: String? = nil, in database: TestDatabase
    ) throws {
        let key = TargetKey.wake(token(seed))
        let write: OutcomeWrite =
            status == 200
            ? .delivered(key, selectedRegisteredAt: registeredAt, at: at, nextPushAt: at + 5 * Self.minute)
            : .failed(
                key, selectedRegisteredAt: registeredAt, reason: reason ?? "HTTP\(status ?? 0)", nextPushAt: at + Self.minute)
        let attempt = PushAttempt(
            token: token(seed), sentAt: at - 30, answeredAt: at, status: status, reason: reason, apnsID: "APNS-ID-\(at)")
        try database.apply(
            [write],
            answered: [
                AnsweredPush(
                    key: key, attempt: attempt, activityType: .charging, environment: .production, previousDeliveryAt: nil)
            ])
    }

    @Test(arguments: TestEngine.every)
    func theAnswerTellsTheRegistrationsStoryNewestFirstWithItsAckDelays(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "diag")
        let api = try api(database)
        let registeredAt = try registerAnHourAgo(1, in: database)
        let first = registeredAt + 10 * Self.minute
        try push(1, at: first, registeredAt: registeredAt, in: database)
        #expect(try database.acknowledge(token(1), now: first + 400) == .matched)
        try push(
            1, at: first + 5 * Self.minute, registeredAt: registeredAt, status: 503, reason: "ServiceUnavailable", in: database)
        try push(1, at: first + 6 * Self.minute, registeredAt: registeredAt, in: database)

        let response = diagnose(api, unregisterBody(sampleToken(1)))
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json" && response.header("Cache-Control") == "no-store")
        let answer = try object(response)
        #expect(answer["registered"] as? Bool == true)
        #expect(answer["activityType"] as? String == "charging" && answer["environment"] as? String == "production")
        #expect(answer["interval"] as? Int == 300 && answer["cadence"] as? String == "base")
        let expiresIn = try #require(answer["expiresIn"] as? Int)
        #expect((7 * 3600 - 120)...(7 * 3600) ~= expiresIn)
        // The last 200 was 44 minutes ago: its next push is due now.
        #expect(answer["nextPushIn"] as? Int == 0)
        #expect(answer["widgets"] is NSNull)
        let attempts = try #require(answer["attempts"] as? [[String: Any]])
        #expect(
            attempts.map { $0["at"] as? String }
                == [first + 6 * Self.minute, first + 5 * Self.minute, first].map {
                    UTCTime(milliseconds: $0).iso8601
                })
        #expect(attempts.map { $0["status"] as? Int } == [200, 503, 200])
        #expect(attempts[1]["reason"] as? String == "ServiceUnavailable" && attempts[0]["reason"] is NSNull)
        #expect(attempts[2]["ackedAfter"] as? Double == 0.4 && attempts[0]["ackedAfter"] is NSNull)
        // Each attempt says these four things and nothing else (no apns-id).
        #expect(attempts.allSatisfy { Set($0.keys) == ["at", "status", "reason", "ackedAfter"] })
        #expect(
            Set(answer.keys) == [
                "registered", "activityType", "environment", "interval", "cadence", "nextPushIn", "expiresIn", "attempts",
                "widgets", "hints",
            ])
        #expect(codes(answer).isEmpty, "a 200 last, acked before: nothing to say")
        #expect(!response.bodyText.contains("APNS-ID"))
    }

    @Test(arguments: TestEngine.every)
    func threeUnackedWakesInARowSayThePhoneDidNotWake(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "diag")
        let api = try api(database)
        let registeredAt = try registerAnHourAgo(1, in: database)
        var at = registeredAt + Self.minute
        try push(1, at: at, registeredAt: registeredAt, in: database)
        #expect(try database.acknowledge(token(1), now: at + 900) == .matched)
        for _ in 1...2 {
            at += 5 * Self.minute
            try push(1, at: at, registeredAt: registeredAt, in: database)
        }
        #expect(codes(try object(diagnose(api, unregisterBody(sampleToken(1))))).isEmpty, "two unacked: a busy phone")
        at += 5 * Self.minute
        try push(1, at: at, registeredAt: registeredAt, in: database)
        let answer = try object(diagnose(api, unregisterBody(sampleToken(1))))
        #expect(codes(answer) == ["notWaking"])
        let text = try #require((answer["hints"] as? [[String: Any]])?.first?["text"] as? String)
        #expect(text.contains("Background App Refresh off, Low Power Mode, or the app force-quit - open the app"))
        // A server's fault after them says so too, and does not undo them; a 200 ends the fault.
        try push(1, at: at + Self.minute, registeredAt: registeredAt, status: nil, reason: "CURLE_COULDNT_CONNECT", in: database)
        #expect(codes(try object(diagnose(api, unregisterBody(sampleToken(1))))) == ["notWaking", "serverFault"])
        try push(1, at: at + 2 * Self.minute, registeredAt: registeredAt, in: database)
        let fourth = try object(diagnose(api, unregisterBody(sampleToken(1))))
        #expect(codes(fourth) == ["notWaking"])
        #expect(((fourth["hints"] as? [[String: Any]])?.first?["text"] as? String)?.hasPrefix("The last 4 wake-ups") == true)
        #expect(try database.acknowledge(token(1), now: at + 2 * Self.minute + 500) == .matched)
        #expect(codes(try object(diagnose(api, unregisterBody(sampleToken(1))))).isEmpty)
    }

    @Test(arguments: TestEngine.every)
    func whatTheAppReportedIsSaidWithWhy(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "diag")
        let api = try api(database)
        try registerAnHourAgo(1, in: database, device: DeviceState(activities: 1, backgroundRefresh: .denied))
        var answer = try object(diagnose(api, unregisterBody(sampleToken(1))))
        #expect(codes(answer) == ["paused"] && answer["cadence"] as? String == "paused")
        #expect(answer["nextPushIn"] is NSNull, "no wake goes while paused")
        try registerAnHourAgo(2, in: database, device: DeviceState(activities: 1, lowPower: true))
        answer = try object(diagnose(api, unregisterBody(sampleToken(2))))
        #expect(codes(answer) == ["lowPower"] && answer["cadence"] as? String == "lowPower" && answer["interval"] as? Int == 600)
        // A widget token the registration has no target for.
        answer = try object(diagnose(api, #"{"pushToken":"\#(sampleToken(2))","widgetPushToken":"\#(testToken(77))"}"#))
        #expect(codes(answer) == ["lowPower", "noWidgetsTarget"])
        // About to expire: registered 7 hours and 50 minutes ago.
        try database.register(token(3), now: Clock().now() - 470 * Self.minute)
        answer = try object(diagnose(api, unregisterBody(sampleToken(3))))
        #expect(codes(answer) == ["expiringSoon"])
        #expect((answer["expiresIn"] as? Int).map { (500...600) ~= $0 } == true)
    }

    @Test(arguments: TestEngine.every)
    func anUnknownTokenAndAnotherAppsLocationSeeNothing(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "diag")
        let api = try api(database)
        let registeredAt = try registerAnHourAgo(1, in: database)
        try push(1, at: registeredAt + Self.minute, registeredAt: registeredAt, in: database)
        let unknown = #"{"registered":false,"hints":[{"code":"notRegistered","text":"\#(DiagnosticHint.notRegistered.text)"}]}"#
        #expect(diagnose(api, unregisterBody(sampleToken(9))).bodyText == unknown)
        #expect(diagnose(api, unregisterBody(sampleToken(1)), app: "other-app").bodyText == unknown)
        #expect(diagnose(api, unregisterBody(sampleToken(1)), path: "/dev/wakeup/diagnostics").status == 200)
        // Registered under the other app alone: the default app's location sees nothing of it.
        try database.register(token(2), now: registeredAt, app: other)
        #expect(diagnose(api, unregisterBody(sampleToken(2))).bodyText == unknown)
        #expect(try object(diagnose(api, unregisterBody(sampleToken(2)), app: "other-app"))["registered"] as? Bool == true)
    }

    @Test(arguments: TestEngine.every)
    func theAnswerHoldsNoTokenNorItsPrefix(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "diag")
        let api = try api(database)
        let widget = PushToken(trusted: testToken(88))
        let registeredAt = Clock().now() - 60 * Self.minute
        try database.register(
            token(1), now: registeredAt, widget: NewRegistration.Widget(token: widget),
            device: DeviceState(activities: 1, backgroundRefresh: .available))
        try push(1, at: registeredAt + Self.minute, registeredAt: registeredAt, in: database)
        let response = diagnose(api, #"{"pushToken":"\#(sampleToken(1))","widgetPushToken":"\#(widget.hex)"}"#)
        let answer = try object(response)
        let widgets = try #require(answer["widgets"] as? [String: Any])
        #expect(widgets["interval"] as? Int == 1800 && widgets["attempts"] as? [Any] != nil)
        for secret in [sampleToken(1), widget.hex] {
            #expect(!response.bodyText.contains(secret.prefix(8)), "\(response.bodyText)")
        }
        #expect(!response.bodyText.contains("APNS-ID"))
        #expect(codes(answer).isEmpty)
    }

    /// A few a minute per token: the fifth within a minute is a 429 with `Retry-After`, which
    /// neither another token nor another app's registration of it shares; a minute later on the
    /// monotonic clock, it is answered again.
    @Test(arguments: TestEngine.every)
    func aTokenAskingTooOftenIsToldToWait(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "diag")
        let limit = DiagnosticsLimit()
        let api = try api(database, limit: limit)
        for _ in 1...4 { #expect(diagnose(api, unregisterBody(sampleToken(1))).status == 200) }
        let refused = diagnose(api, unregisterBody(sampleToken(1)))
        #expect(refused.status == 429)
        #expect(refused.bodyText == #"{"error":"Too many requests; try again later"}"#)
        let wait = try #require(refused.header("Retry-After").flatMap { Int($0) })
        #expect((1...60).contains(wait))
        #expect(refused.header("Cache-Control") == "no-store")
        #expect(diagnose(api, unregisterBody(sampleToken(2))).status == 200)
        #expect(diagnose(api, unregisterBody(sampleToken(1)), app: "other-app").status == 200)
        // A bad request is a 400 first, however often.
        #expect(diagnose(api, unregisterBody("abc")).status == 400)
        let later = try self.api(database, limit: limit, elapsed: MonotonicClock(offsetMilliseconds: Self.minute + 1))
        #expect(diagnose(later, unregisterBody(sampleToken(1))).status == 200)
    }

    /// `liveactivity-sweep history` prints the hints the route gives, from the same function:
    /// in its text, one line each, and in `--json` the same array as the answer's.
    @Test(arguments: TestEngine.every)
    func historyPrintsTheSameHints(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "diag")
        let api = try api(database)
        let registeredAt = try registerAnHourAgo(1, in: database, device: DeviceState(activities: 1, lowPower: true))
        for index in 0..<3 {
            try push(1, at: registeredAt + Int64(index + 1) * 10 * Self.minute, registeredAt: registeredAt, in: database)
        }
        let body = diagnose(api, unregisterBody(sampleToken(1))).bodyText
        #expect(codes(try object(diagnose(api, unregisterBody(sampleToken(1))))) == ["notWaking", "lowPower"])
        guard case .found(let history) = try database.history(String(sampleToken(1).prefix(12))) else {
            Issue.record("no history")
            return
        }
        let now = Clock().now()
        let hints = DiagnosticHint.hints(
            for: history.registration, policy: IntervalPolicy(), expiry: 8 * 60 * Self.minute, now: now)
        let json = history.json(policy: IntervalPolicy(), expiry: 8 * 60 * Self.minute, now: now)
        let hintsJSON = "\"hints\":" + DiagnosticHint.json(hints) + "}"
        #expect(json.hasSuffix(hintsJSON) && body.hasSuffix(hintsJSON), "\(json)\n\(body)")
        let text = history.text(now: now, policy: IntervalPolicy(), expiry: 8 * 60 * Self.minute)
        for hint in hints { #expect(text.contains("  \(hint.code.rawValue): \(hint.text)"), "\(text)") }
    }

    /// A bad body is a 400 that changes nothing (the error table has each row; here on every engine).
    @Test(arguments: TestEngine.every)
    func aBadRequestChangesNothing(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "diag")
        let api = try api(database)
        let registeredAt = try registerAnHourAgo(1, in: database)
        try push(1, at: registeredAt + Self.minute, registeredAt: registeredAt, in: database)
        let before = try database.registration(token(1), attempts: true)
        for body in [
            "{}", unregisterBody(String(sampleToken(1).dropLast())),
            #"{"pushToken":"\#(sampleToken(1))","widgetPushToken":"\#(sampleToken(1))"}"#,
            #"{"pushToken":"\#(sampleToken(1))","widgetPushToken":7}"#, "[]",
        ] {
            #expect(diagnose(api, body).status == 400, "\(body)")
        }
        #expect(try database.registration(token(1), attempts: true) == before)
    }
}
