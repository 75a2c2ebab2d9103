import Foundation
import LiveActivityDomain
import LiveActivityStore
import TestSupport
import Testing

/// `liveactivity-sweep` as cron runs it, against the APNs stand-in over real HTTP/2 + TLS.
@Suite("Sweep against the APNs stand-in")
struct SweepAgainstStandInTests {
    @Test(arguments: TestEngine.real)
    func theRequestCarriesExactlyTheHeadersAndPayloadOfSpecSection5(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register([1])
        try fixture.register([2], type: .debug, environment: .sandbox)
        let before = Clock().now() / 1000
        let result = try fixture.sweep()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(" liveactivity-sweep: sweep: active=2 sent=2 skipped=0 expired=0 removed=0 failed=0 duration=")
        )

        let charging = try #require(try fixture.received(1).first)
        #expect(charging.method == "POST")
        #expect(charging.serverProtocol == "HTTP/2.0")
        #expect(charging.authorization?.hasPrefix("bearer ") == true)
        #expect(charging.topic == fixture.standIn.key.bundleID)
        #expect(charging.pushType == "background")
        #expect(charging.priority == "5")
        #expect(charging.payload == #"{"aps":{"content-available":1},"liveActivityWakeup":true}"#)
        #expect(charging.status == 200)
        let expiration = try #require(charging.expiration.flatMap { Int64($0) })
        #expect(expiration >= before + 300 && expiration <= before + 310, "now + the charging interval")
        let debug = try #require(try fixture.received(2).first)
        let debugExpiration = try #require(debug.expiration.flatMap { Int64($0) })
        #expect(debugExpiration >= before + 60 && debugExpiration <= before + 70, "now + the debug interval")

        let row = try #require(try fixture.row(1))
        #expect(row.wakeupCount == 1 && row.lastPushAt != nil && row.consecutiveFailures == 0)
    }

    @Test(arguments: TestEngine.real)
    func theProviderTokenVerifiesWithPyJWTAndIsReusedByThreeSweepProcesses(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        var tokens: [String] = []
        for round in 0..<3 {
            try fixture.register([100 + round], type: .debug)
            let result = try fixture.sweep()
            #expect(result.status == 0, "\(result.stderr)")
            let pushed = try #require(try fixture.received(100 + round).last)
            tokens.append(String(try #require(pushed.authorization).dropFirst("bearer ".count)))
        }
        #expect(Set(tokens).count == 1, "one token for three cron runs")
        let decoded = try verifyWithPyJWT([tokens[0]], privateKeyPath: fixture.standIn.key.privateKeyPath)
        let fields = try #require(decoded.first).split(separator: " ")
        #expect(fields[0] == "ES256")
        #expect(fields[1] == Substring(fixture.standIn.key.keyID))
        #expect(fields[2] == Substring(fixture.standIn.key.teamID))
        #expect(abs((Int64(fields[3]) ?? 0) - Clock().now() / 1000) < 120)
        #expect(fields[4] == "2" && fields[5] == "2", "header {alg, kid}, claims {iss, iat}, nothing else")
        // The signature is raw R||S: 64 bytes, 86 base64url characters.
        #expect(tokens[0].split(separator: ".").last?.count == 86)
    }

    @Test(arguments: TestEngine.real)
    func theTokenIsRenewedOnceItIsFiftyMinutesOld(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register([1], type: .debug)
        #expect(try fixture.sweep().status == 0)
        let first = try #require(try fixture.cachedToken())

        // Fifty-one minutes later, by the sweep's clock and the stand-in's alike.
        let later = try StandInStack(key: fixture.standIn.key, environment: ["LIVEACTIVITY_TEST_CLOCK_OFFSET": "3060"])
        let laterFixture = SweepFixtureOnSameDatabase(fixture: fixture, standIn: later)
        let result = try laterFixture.sweep(["LIVEACTIVITY_TEST_CLOCK_OFFSET": "3060"])
        #expect(result.status == 0, "\(result.stderr)")
        let second = try #require(try fixture.cachedToken())
        #expect(second.token != first.token)
        #expect(second.issuedAt - first.issuedAt >= 3_000_000)
        let pushed = try #require(try later.state().received(token: sampleToken(1)).last)
        #expect(pushed.status == 200)
        #expect(pushed.authorization == "bearer " + second.token)
        let decoded = try verifyWithPyJWT([second.token], privateKeyPath: fixture.standIn.key.privateKeyPath)
        #expect(decoded.count == 1)
    }

    @Test(arguments: TestEngine.real)
    func unregisteredAndBadTokensAreRemovedAndServerErrorsKept(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register(1...6, ago: 60_000)
        let state = try fixture.standIn.state()
        try state.script(token: sampleToken(1), status: 410, reason: "Unregistered", timestamp: Clock().now())
        try state.script(token: sampleToken(2), status: 410, reason: "ExpiredToken", timestamp: Clock().now() - 3_600_000)
        try state.script(token: sampleToken(3), status: 400, reason: "BadDeviceToken")
        try state.script(token: sampleToken(4), status: 503, reason: "ServiceUnavailable")
        try state.script(token: sampleToken(5), status: 429, reason: "TooManyRequests")
        let result = try fixture.sweep()
        #expect(result.status == 0, "some pushes failing is a normal run: \(result.stderr)")
        #expect(result.stdout.contains("sent=1 "))
        #expect(result.stdout.contains("removed=2 "))
        #expect(result.stdout.contains("failed=2 "))
        #expect(try fixture.row(1) == nil)
        #expect(try fixture.row(2) != nil, "registered again after the 410's timestamp")
        #expect(try fixture.row(2)?.lastError == "ExpiredToken")
        #expect(try fixture.row(3) == nil)
        #expect(try fixture.row(4)?.consecutiveFailures == 1)
        #expect(try fixture.row(4)?.lastError == "ServiceUnavailable")
        #expect(try fixture.row(5)?.lastError == "TooManyRequests")
        #expect(try fixture.row(6)?.wakeupCount == 1)

        // The kept ones are tried again after their first back-off (a minute) and succeed.
        let next = try fixture.sweep(["LIVEACTIVITY_TEST_CLOCK_OFFSET": "61"])
        #expect(next.stdout.contains("sent=2 "), "\(next.stdout)")
        #expect(try fixture.row(4)?.consecutiveFailures == 0)
        #expect(try fixture.row(4)?.wakeupCount == 1)
    }

    @Test(arguments: TestEngine.real)
    func expiredProviderTokenIsRenewedAndRetriedInTheSameSweep(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register([1, 2])
        try fixture.standIn.state().script(token: sampleToken(1), status: 403, reason: "ExpiredProviderToken")
        let result = try fixture.sweep()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("sent=2 "), "\(result.stdout)")
        let pushes = try fixture.received(1)
        #expect(pushes.map(\.status) == [403, 200])
        #expect(pushes[0].authorization != pushes[1].authorization, "retried with a new token")
        #expect(try fixture.row(1)?.wakeupCount == 1)
        #expect(result.stderr.contains("ExpiredProviderToken"))
    }

    @Test(arguments: TestEngine.real, [(403, "InvalidProviderToken"), (403, "BadEnvironmentKeyInToken"), (400, "BadTopic")])
    func aConfigurationFaultStopsTheSweepAndKeepsEveryRegistration(engine: TestEngine, answer: (status: Int, reason: String))
        throws
    {
        let (status, reason) = answer
        let fixture = try SweepFixture(engine)
        try fixture.register(1...300)
        try fixture.standIn.state().script(token: "*", status: status, reason: reason)
        let result = try fixture.sweep()
        #expect(result.status == 1)
        #expect(result.stderr.contains("configuration fault"))
        #expect(result.stderr.contains(reason))
        #expect(result.stderr.split(separator: "\n").count <= 2, "one clear line, no stack trace")
        #expect(try fixture.count() == 300, "\(result.stdout) \(result.stderr)")
        #expect(try fixture.received().count < 300, "sending stopped")
    }

    @Test(arguments: TestEngine.real)
    func aWrongKeyIdIsAConfigurationFaultFromTheStandInItself(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register([1])
        let result = try fixture.sweep(["APNS_KEY_ID": "WRONGKEY01"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("InvalidProviderToken"))
        #expect(try fixture.row(1) != nil)
    }

    /// Unproven tokens rejected while others in their environment get 200s are junk (the guard's
    /// trips are in SweepFaultsAgainstStandInTests).
    @Test(arguments: TestEngine.real)
    func mostlyBadUnprovenTokensBesideTwoHundredsAreDeleted(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register(1...20, environment: .sandbox)
        try fixture.standIn.state().script(token: "*", status: 400, reason: "BadDeviceToken", count: 15)
        let result = try fixture.sweep()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("removed=15 ") && result.stdout.contains("removals=BadDeviceToken:15"))
        #expect(try fixture.count() == 5)
    }

    @Test(arguments: TestEngine.real)
    func intervalsPerTypeAndTheEightHourExpiry(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register([1], type: .charging)
        try fixture.register([2], type: .debug)
        try fixture.register([3], type: .debug, ago: 8 * 3_600_000 + 1000)
        let first = try fixture.sweep()
        #expect(first.stdout.contains("active=2 sent=2 skipped=0 expired=1 "), "\(first.stdout)")
        let minuteLater = try fixture.sweep(["LIVEACTIVITY_TEST_CLOCK_OFFSET": "61"])
        #expect(minuteLater.stdout.contains("sent=1 skipped=1 "), "only debug is due: \(minuteLater.stdout)")
        let fiveMinutesLater = try fixture.sweep(["LIVEACTIVITY_TEST_CLOCK_OFFSET": "300"])
        #expect(fiveMinutesLater.stdout.contains("sent=2 "), "\(fiveMinutesLater.stdout)")
        #expect(try fixture.received(1).count == 2)
        #expect(try fixture.received(2).count == 3)
        #expect(try fixture.received(3).isEmpty)
    }

    @Test(arguments: TestEngine.real)
    func twoSweepsStartedTogetherPushEachTokenOnce(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register(1...400)
        let results = LockedBox<[CommandResult]>([])
        // Each sweep is killed after runCommand's 60 s; the bound is for a bug here.
        let ended = TestThreads.run(2, timeout: .seconds(180)) { _ in
            if let result = try? fixture.sweep() { results.update { $0.append(result) } }
        }
        #expect(ended, "the sweeps did not finish")
        #expect(results.get().count == 2)
        // What each sweep said, for a failure here: once, with both cores kept busy beside both
        // passes, one of the two exited non-zero on PostgreSQL while every push went out once.
        let said = results.get().map { "exit \($0.status): \($0.stdout.suffix(600)) \($0.stderr.suffix(1500))" }
        #expect(results.get().allSatisfy { $0.status == 0 }, "\(said)")
        let received = try fixture.received()
        #expect(received.count == 400, "\(said)")
        #expect(Set(received.map(\.deviceToken)).count == 400)
    }

    @Test(arguments: TestEngine.real)
    func aSweepKilledMidwayLeavesASoundDatabaseAndTheNextOneFinishes(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register(1...2000)
        // Each answer takes 10 ms, so the run lasts long enough to be killed in the middle.
        try fixture.standIn.state().script(token: "*", status: 200, reason: nil, delayMilliseconds: 10, count: 2000)
        var environment = fixture.sweepEnvironment()
        environment["LIVEACTIVITY_APNS_CONCURRENCY"] = "20"
        let sweep = try ChildProcess(
            product("liveactivity-sweep"), environment: environment, outputPath: fixture.folder.file("sweep.log"))
        #expect(waitUntil(timeout: 60) { ((try? fixture.received().count) ?? 0) >= 300 })
        // Deliberately SIGKILL: a crash or a power cut in the middle of a run.
        sweep.signal(SIGKILL)
        #expect(sweep.waitForExit(timeout: 30) == .signalled(SIGKILL))

        try expectIntact(fixture.database, holding: [])
        let pushedBefore = try fixture.database.scalar("SELECT count(*) FROM push_targets WHERE push_count > 0") ?? -1
        #expect(pushedBefore < 2000)

        let next = try fixture.sweep()
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try fixture.database.scalar("SELECT count(*) FROM push_targets WHERE push_count > 0") == 2000)
        #expect(try fixture.count() == 2000)
    }

    @Test(arguments: TestEngine.real)
    func anUnreachableStandInCountsFailuresAndKeepsRegistrations(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register(1...3)
        let result = try fixture.sweep(["APNS_HOST": "https://127.0.0.1:\(freePort())"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("failed=3 "), "\(result.stdout)")
        #expect(try fixture.row(1)?.consecutiveFailures == 1)
        #expect(try fixture.count() == 3)
    }

    @Test(arguments: TestEngine.real)
    func anUntrustedCertificateIsATransportFailureNotACrash(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register(1...2)
        let result = try fixture.sweep(["APNS_CA_FILE": ""])
        #expect(result.status == 0)
        #expect(result.stdout.contains("failed=2 "), "\(result.stdout)")
        #expect(try fixture.row(1)?.lastError == "CURLE_PEER_FAILED_VERIFICATION")
        #expect(try fixture.received().isEmpty)
    }

    @Test(arguments: TestEngine.real)
    func aStandInThatDoesNotAnswerHitsTheTimeout(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        try fixture.register([1])
        try fixture.standIn.state().script(token: "*", status: 200, reason: nil, delayMilliseconds: 5000)
        // The answer comes after 5 s; a timeout, not the answer, ended it (how soon is the bench's).
        let result = try fixture.sweep(["LIVEACTIVITY_APNS_TIMEOUT": "1"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("failed=1 "), "\(result.stdout)")
        #expect(try fixture.row(1)?.lastError == "CURLE_OPERATION_TIMEDOUT")
    }

    @Test(arguments: TestEngine.real)
    func missingSettingsAndAnUnusableDatabaseAreOneLineEach(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine)
        let missing = try fixture.sweep(["APNS_TEAM_ID": ""])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasSuffix(" liveactivity-sweep: configuration: APNS_TEAM_ID is not set\n"))
        #expect(missing.stderr.split(separator: "\n").count == 1)
        let malformed = try fixture.sweep(["LIVEACTIVITY_INTERVAL_DEBUG": "soon"])
        #expect(malformed.status == 2)
        #expect(malformed.stderr.contains("LIVEACTIVITY_INTERVAL_DEBUG"))
        let unusable = try fixture.sweep(["LIVEACTIVITY_DB": fixture.folder.file("no/such/folder/db.sqlite")])
        #expect(unusable.status == 3)
        #expect(unusable.stderr.split(separator: "\n").count == 1)
        try "not a database, just text that is long enough to fill a header page".write(
            toFile: fixture.folder.file("garbage.sqlite"), atomically: true, encoding: .utf8)
        let garbage = try fixture.sweep(["LIVEACTIVITY_DB": fixture.folder.file("garbage.sqlite")])
        #expect(garbage.status == 3)
        #expect(garbage.stderr.contains("database"))
    }
}

/// A second view of a fixture's database through another stand-in (a shifted clock).
struct SweepFixtureOnSameDatabase {
    let fixture: SweepFixture
    let standIn: StandInStack

    func sweep(_ extra: [String: String]) throws -> CommandResult {
        var environment = fixture.sweepEnvironment(standIn)
        environment.merge(extra) { _, new in new }
        return try runCommand(product("liveactivity-sweep"), environment: environment)
    }
}
