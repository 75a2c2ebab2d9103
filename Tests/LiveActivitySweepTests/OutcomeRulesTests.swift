import APNsHTTP2
import LiveActivityDomain
import LiveActivitySweep
import TestSupport
import Testing

/// SPEC section 5 step 6, one test per row of the outcome table: a due row and its answer in,
/// the write and the counts out - no database, no network.
@Suite struct OutcomeRulesTests {
    let rules = OutcomeRules(policy: IntervalPolicy(typeSeconds: [.charging: 300, .debug: 60]))
    let now: Int64 = 1_800_000_000_000
    let row = DueTarget(
        wake: PushToken(trusted: sampleToken(1)), activityType: .charging, environment: .sandbox,
        registeredAt: 1_799_999_000_000)

    func decide(_ answer: APNsAnswer, isRetry: Bool = false, failures: Int = 0) -> OutcomeDecision {
        var row = row
        row.failures = failures
        return rules.decide(answer, for: row, isRetry: isRetry, now: now)
    }

    func failed(_ reason: String, after delay: Int64) -> OutcomeDecision {
        OutcomeDecision(
            .write(.failed(.wake(row.token), selectedRegisteredAt: row.registeredAt, reason: reason, nextPushAt: now + delay)),
            tally: .failed(reason))
    }

    func stops(_ decision: OutcomeDecision) -> SweepFault? {
        if case .stopEnvironment(let fault) = decision.action { return fault }
        return nil
    }

    @Test func twoHundredRecordsTheDeliveryAndSchedulesOneIntervalLater() {
        #expect(
            decide(.status(200))
                == OutcomeDecision(
                    .write(
                        .delivered(.wake(row.token), selectedRegisteredAt: row.registeredAt, at: now, nextPushAt: now + 300_000)),
                    tally: .delivered))
        var debug = row
        debug.activityType = .debug
        #expect(
            rules.decide(.status(200), for: debug, isRetry: false, now: now).action
                == .write(.delivered(.wake(row.token), selectedRegisteredAt: row.registeredAt, at: now, nextPushAt: now + 60_000))
        )
    }

    @Test(arguments: ["Unregistered", "ExpiredToken"])
    func fourTenDeletesUnlessRegisteredAgainAfterItsTimestamp(reason: String) {
        #expect(
            decide(.status(410, reason, timestamp: now - 5))
                == OutcomeDecision(
                    .write(
                        .unregistered(
                            .wake(
                                row.token), registeredAtOrBefore: now - 5, selectedRegisteredAt: row.registeredAt, reason: reason,
                            nextPushAt: now + 300_000)),
                    tally: .removed(reason)))
        // Without a timestamp, only the registration the push was sent for is deleted.
        #expect(
            decide(.status(410, reason)).action
                == .write(
                    .unregistered(
                        .wake(
                            row.token), registeredAtOrBefore: row.registeredAt, selectedRegisteredAt: row.registeredAt,
                        reason: reason, nextPushAt: now + 300_000)))
    }

    @Test(arguments: ["BadDeviceToken", "DeviceTokenNotForTopic"])
    func badDeviceTokensAskTheGuardToDelete(reason: String) {
        #expect(
            decide(.status(400, reason))
                == OutcomeDecision(
                    .deleteUnlessGuarded(.delete(.wake(row.token), registeredAtOrBefore: row.registeredAt), reason: reason)))
    }

    @Test func anExpiredProviderTokenIsRetriedOnceThenItIsAProviderFault() throws {
        #expect(decide(.status(403, "ExpiredProviderToken")) == OutcomeDecision(.retryWithNewToken))
        let fault = try #require(stops(decide(.status(403, "ExpiredProviderToken"), isRetry: true)))
        #expect(fault.kind == .provider && fault.reason == "ExpiredProviderToken" && fault.environment == .sandbox)
        #expect(fault.advice.contains("clock"))
    }

    /// A fault about the key, the team or the account stops the whole environment; so does a
    /// topic fault of a wake, whose topic is the bundle id every kind's topic holds (SPEC 5,
    /// "Faults are scoped"; a widgets topic fault stops widgets alone: PushKindTests).
    @Test(
        arguments: [
            (403, "InvalidProviderToken", nil), (403, "MissingProviderToken", nil), (403, "BadEnvironmentKeyIdInToken", nil),
            (403, "BadEnvironmentKeyInToken", nil), (403, "Forbidden", nil), (400, "BadTopic", nil),
            (400, "TopicDisallowed", nil), (400, "MissingTopic", nil),
        ] as [(Int, String, PushKind?)])
    func configurationFaultsStopTheirEnvironment(status: Int, reason: String, scopedTo kind: PushKind?) throws {
        let decision = decide(.status(status, reason))
        let fault = try #require(stops(decision))
        #expect(
            fault == .init(environment: .sandbox, pushKind: kind, kind: .configuration, reason: reason, advice: fault.advice))
        #expect(fault.advice.hasPrefix("check APNS_"))
        #expect(decision.tally == SweepTally(), "counted with the fault, not as a failed push")
    }

    @Test(arguments: [
        (429, "TooManyProviderTokenUpdates"), (403, "UnrelatedKeyIdInToken"), (404, "BadPath"), (400, "BadPriority"),
        (400, "BadExpirationDate"), (400, "InvalidPushType"), (400, "BadMessageId"), (413, "PayloadTooLarge"),
        (400, "PayloadEmpty"), (405, "MethodNotAllowed"), (405, nil),
    ])
    func answersTheSameForEveryPushAreProviderFaultsOfTheirEnvironment(status: Int, reason: String?) throws {
        let fault = try #require(stops(decide(.status(status, reason))))
        #expect(fault.kind == .provider && fault.environment == .sandbox)
        #expect(fault.scope.covers(.defaultApp, .sandbox, .wake), "it stops the wakes of its environment")
        #expect(fault.reason == reason ?? "HTTP405")
    }

    @Test func noConnectionIsAnUnreachableFaultAndNoHTTP2AConfigurationFault() throws {
        let unreachable = try #require(stops(decide(.unreachable(.couldNotConnect))))
        #expect(unreachable.kind == .unreachable && unreachable.reason == "CURLE_COULDNT_CONNECT" && !unreachable.failsTheRun)
        let notAPNs = try #require(stops(decide(.notHTTP2)))
        #expect(notAPNs.kind == .configuration && notAPNs.reason == "NotHTTP2" && notAPNs.failsTheRun)
    }

    @Test(arguments: [
        APNsAnswer.status(429, "TooManyRequests"), .status(500, "InternalServerError"), .status(503, "ServiceUnavailable"),
        .status(503, "Shutdown"), .status(502), .failed(.operationTimedOut), .failed(.receiveError),
    ])
    func serverTroubleAndTimeoutsBackOff(answer: APNsAnswer) {
        #expect(decide(answer) == failed(answer.reason, after: 60_000), "the first failure: one minute")
        #expect(decide(answer, failures: 1) == failed(answer.reason, after: 120_000))
        #expect(decide(answer, failures: 2) == failed(answer.reason, after: 240_000))
        #expect(decide(answer, failures: 3) == failed(answer.reason, after: 300_000), "never longer than the interval")
    }

    @Test(arguments: [(400, "BadCollapseId"), (400, "DuplicateHeaders"), (403, "BadCertificate"), (418, nil)])
    func anyOtherClientErrorIsKeptOneIntervalLater(status: Int, reason: String?) {
        #expect(decide(.status(status, reason)) == failed(reason ?? "HTTP\(status)", after: 300_000))
    }

    @Test func aFaultHoldsWhatItTouchedOneIntervalAndAnUnreachableHostBacksOff() {
        let fault = SweepFault(environment: .sandbox, kind: .provider, reason: "BadPriority", advice: "")
        let held = rules.touched(row, by: fault, now: now)
        #expect(
            held.write
                == .held(
                    .wake(row.token), selectedRegisteredAt: row.registeredAt, reason: "BadPriority", nextPushAt: now + 300_000))
        #expect(held.tally == .held)
        var failing = row
        failing.failures = 2
        let down = SweepFault(environment: .sandbox, kind: .unreachable, reason: "CURLE_COULDNT_CONNECT", advice: "")
        let backedOff = rules.touched(failing, by: down, now: now)
        #expect(
            backedOff.write
                == .failed(
                    .wake(
                        row.token), selectedRegisteredAt: row.registeredAt, reason: "CURLE_COULDNT_CONNECT",
                    nextPushAt: now + 240_000)
        )
        #expect(backedOff.tally == .failed("CURLE_COULDNT_CONNECT"))
    }

    @Test func reasonsAreABoundedVocabulary() {
        #expect(APNsAnswer.status(410, "Unregistered").reason == "Unregistered")
        #expect(APNsAnswer.status(502).reason == "HTTP502")
        #expect(APNsAnswer.status(400, "Evil \u{1b}[31m text from 10.0.0.1").reason == "HTTP400", "undocumented: the status only")
        #expect(APNsAnswer.status(400, "BadPayload").reason == "HTTP400")
        #expect(APNsAnswer.failed(.operationTimedOut).reason == "CURLE_OPERATION_TIMEDOUT")
        #expect(APNsAnswer.unreachable(.couldNotConnect).reason == "CURLE_COULDNT_CONNECT")
        #expect(APNsAnswer.failed(CurlCode(rawValue: 777)).reason == "CURLE_777")
        #expect(APNsAnswer.notHTTP2.reason == "NotHTTP2")
    }
}

@Suite struct BackOffTests {
    @Test func doublesFromAMinuteUpToTheInterval() {
        let hour: Int64 = 3_600_000
        #expect((1...8).map { BackOff.delay(afterFailures: $0, interval: hour) / 60_000 } == [1, 2, 4, 8, 16, 32, 60, 60])
        #expect(BackOff.delay(afterFailures: 1, interval: 30_000) == 30_000, "an interval under a minute caps it")
        #expect(BackOff.delay(afterFailures: 0, interval: hour) == 60_000)
        #expect(BackOff.delay(afterFailures: 1_000_000, interval: hour) == hour, "no overflow")
    }
}
