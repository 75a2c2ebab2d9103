import Foundation
import LiveActivityDomain
import LiveActivityStore
import TestSupport
import Testing

/// `liveactivity-sweep history TOKEN [--json]` as the operator runs it (SPEC 7, issue 16).
@Suite("History command")
struct HistoryCommandTests {
    let store: TestDatabase
    var database: String { store.setting }
    var folder: TemporaryDirectory { store.folder }

    /// The suite's state on `engine`, made afresh by each test case (the engine is its argument).
    init(_ engine: TestEngine) throws { store = try TestDatabase(engine, label: "history") }

    func history(_ arguments: [String], _ settings: [String: String] = [:]) throws -> CommandResult {
        var environment = ["LIVEACTIVITY_DB": database, "PATH": "/usr/bin:/bin"]
        environment.merge(settings) { _, new in new }
        return try runCommand(product("liveactivity-sweep"), ["history"] + arguments, environment: environment)
    }

    /// Two registrations that share their first 10 digits, one with pushes answered and acked.
    func populate() throws -> (String, String) {
        let shared = "c0ffee1234"
        let first = shared + String(testToken(1).dropFirst(10))
        let second = shared + String(testToken(2).dropFirst(10))
        let now = Clock().now()
        for (token, interval) in [(first, 900), (second, 86_400)] {
            try store.register(
                try PushToken(validating: token), type: .charging, environment: .production, now: now - 60_000,
                expiresAt: now, cap: 10, interval: interval)
        }
        let answers: [(Int?, String?, String?)] = [
            (503, "ServiceUnavailable", "11111111-2222-3333-4444-555555555555"), (nil, "CURLE_OPERATION_TIMEDOUT", nil),
            (200, nil, "AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE"),
        ]
        for (index, (status, reason, id)) in answers.enumerated() {
            let at = now - 50_000 + Int64(index) * 10_000
            // Written as the sweep writes them: the 200 leaves the next push 15 minutes on.
            let writes: [OutcomeWrite] =
                status == 200
                ? [
                    .delivered(
                        .wake(
                            try PushToken(validating: first)), selectedRegisteredAt: now - 60_000, at: at,
                        nextPushAt: at + 900_000)
                ]
                : []
            try store.apply(
                writes,
                answered: [
                    AnsweredPush(
                        key: .wake(try PushToken(validating: first)),
                        attempt: PushAttempt(
                            token: try PushToken(validating: first), sentAt: at - 5, answeredAt: at, status: status,
                            reason: reason,
                            apnsID: id),
                        activityType: .charging, environment: .production, previousDeliveryAt: nil)
                ])
        }
        try store.acknowledge(try PushToken(validating: first), now: now - 28_000)
        return (first, second)
    }

    @Test(arguments: TestEngine.real)
    static func aPrefixShowsTheRegistrationAndItsAttemptsNewestFirst(engine: TestEngine) throws {
        let fixture = try Self(engine)
        let (first, _) = try fixture.populate()
        let run = try fixture.history([String(first.prefix(12)).uppercased()])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Registration \(first.prefix(8))… (charging, production)")
        #expect(lines.contains("  interval: 900 s, as the app asked"))
        #expect(lines.contains { $0.hasPrefix("  registered: ") && $0.contains("; expires ") })
        #expect(lines.contains { $0.hasPrefix("  next push: ") })
        #expect(lines.contains("  wakeups: 1; failures in a row: 0; last reason: none"))
        let attempts = Array(lines.drop { !$0.hasPrefix("Attempts") }.dropFirst())
        #expect(attempts.count == 3)
        #expect(attempts[0].contains("  200  apns-id AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE  acked "))
        #expect(attempts[0].contains("(after 2.0 s)"))
        #expect(attempts[1].hasSuffix("CURLE_OPERATION_TIMEDOUT (no answer)"))
        #expect(attempts[2].contains("503 ServiceUnavailable  apns-id 11111111-2222-3333-4444-555555555555"))
        #expect(!run.stdout.contains(String(first.prefix(9))), "the token by its first 8 characters only")
    }

    @Test(arguments: TestEngine.real)
    static func jsonHasTheSameStoryAndTheClampedInterval(engine: TestEngine) throws {
        let fixture = try Self(engine)
        let (first, second) = try fixture.populate()
        let run = try fixture.history([second, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let story = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(story["token"] as? String == String(second.prefix(8)))
        #expect(story["interval"] as? Int == 3600 && story["intervalAsked"] as? Int == 86_400)
        #expect((story["attempts"] as? [Any])?.isEmpty == true)
        #expect(!run.stdout.contains(second) && !run.stdout.contains(first))
        let longer = try fixture.history([second, "--json"], ["LIVEACTIVITY_INTERVAL_MAX": "7200"])
        #expect(longer.stdout.contains("\"interval\":7200,"))
    }

    @Test(arguments: TestEngine.real)
    static func anAmbiguousPrefixSaysHowManyAndAnUnknownOneIsNotRegistered(engine: TestEngine) throws {
        let fixture = try Self(engine)
        let (first, _) = try fixture.populate()
        let ambiguous = try fixture.history(["c0ffee12"])
        #expect(ambiguous.status == 1 && ambiguous.stdout.isEmpty)
        #expect(ambiguous.stderr.contains("2 registrations start with c0ffee12…; give more digits of the token"))
        let unknown = try fixture.history(["deadbeef"])
        #expect(unknown.status == 1 && unknown.stderr.contains("deadbeef… is not registered"))
        #expect(unknown.stderr.split(separator: "\n").count == 1)
        let whole = try fixture.history([first])
        #expect(whole.status == 0)
    }

    @Test(arguments: TestEngine.real)
    static func aTokenThatIsNotEightHexDigitsIsOneLineAndExit2(engine: TestEngine) throws {
        let fixture = try Self(engine)
        _ = try fixture.populate()
        for bad in [["c0ffee1"], ["c0ffee1z"], [], ["c0ffee12", "c0ffee13"]] {
            let run = try fixture.history(bad)
            #expect(run.status == 2, "\(bad): \(run.status)")
            #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains("TOKEN"), "\(bad): \(run.stderr)")
        }
        // `--app` names an app (SPEC 6): without a name, or with one no app may have, one line and exit 2.
        for bad in [["c0ffee12", "--app"], ["c0ffee12", "--app", "Other_App"]] {
            let run = try fixture.history(bad)
            #expect(run.status == 2, "\(bad): \(run.status)")
            #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains("--app"), "\(bad): \(run.stderr)")
        }
        let other = try fixture.history([sampleToken(1), "--app", "other-app"])
        #expect(other.status == 1 && other.stderr.contains("is not registered for app other-app"), "\(other.stderr)")
        let help = try runCommand(product("liveactivity-sweep"), ["--help"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(help.stdout.contains("history TOKEN [--app NAME] [--json]"))
    }

    /// Issue 50: the hints the app's diagnostics give, printed by the command as the same
    /// function renders them: a line each after the attempts, and `--json`'s `hints`.
    @Test(arguments: TestEngine.real)
    static func itPrintsTheHintsTheAppsDiagnosticsGive(engine: TestEngine) throws {
        let fixture = try Self(engine)
        let token = try PushToken(validating: testToken(50))
        let now = Clock().now()
        let registeredAt = now - 3_600_000
        try fixture.store.register(token, now: registeredAt, device: DeviceState(activities: 1, lowPower: true))
        for index in 0..<3 {
            let at = registeredAt + Int64(index + 1) * 600_000
            try fixture.store.apply(
                [.delivered(.wake(token), selectedRegisteredAt: registeredAt, at: at, nextPushAt: at + 600_000)],
                answered: [
                    AnsweredPush(
                        key: .wake(token),
                        attempt: PushAttempt(token: token, sentAt: at - 5, answeredAt: at, status: 200, reason: nil, apnsID: nil),
                        activityType: .charging, environment: .production, previousDeliveryAt: nil)
                ])
        }
        let registration = try #require(try fixture.store.registration(token, attempts: true))
        let hints = DiagnosticHint.hints(for: registration, policy: IntervalPolicy(), expiry: 8 * 3_600_000, now: Clock().now())
        #expect(hints.map(\.code) == [.notWaking, .lowPower])

        let text = try fixture.history([String(token.hex.prefix(10))])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Hints (as /wakeup/diagnostics gives them to the app):\n"), "\(text.stdout)")
        for hint in hints { #expect(text.stdout.contains("\n  \(hint.code.rawValue): \(hint.text)"), "\(text.stdout)") }
        let json = try fixture.history([String(token.hex.prefix(10)), "--json"])
        #expect(json.status == 0)
        #expect(json.stdout.contains("\"hints\":" + DiagnosticHint.json(hints)), "\(json.stdout)")
    }
}
