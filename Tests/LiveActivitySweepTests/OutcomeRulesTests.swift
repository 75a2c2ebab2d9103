import APNsHTTP2
import LiveActivityCore
import LiveActivitySweep
import TestSupport
import Testing

/// SPEC section 5 step 6, one test per row of the outcome table: a due row and its answer in,
/// the write and the counts out - no database, no network.
@Suite struct OutcomeRulesTests {
    let rules = OutcomeRules(intervals: [.charging: 300_000, .debug: 60_000])
    let now: Int64 = 1_800_000_000_000
    let row = SweepStore.Due(
        token: PushToken(trusted: sampleToken(1)), activityType: .charging, environment: .sandbox,
        registeredAt: 1_799_999_000_000)

    func decide(_ answer: APNsAnswer, isRetry: Bool = false) -> OutcomeDecision {
        rules.decide(answer, for: row, isRetry: isRetry, now: now)
    }

    @Test func twoHundredRecordsTheDeliveryAndSchedulesOneIntervalLater() {
        #expect(
            decide(.status(200))
                == OutcomeDecision(
                    .write(.delivered(row.token, selectedRegisteredAt: row.registeredAt, at: now, nextPushAt: now + 300_000)),
                    tally: .delivered))
        var debug = row
        debug.activityType = .debug
        #expect(
            rules.decide(.status(200), for: debug, isRetry: false, now: now).action
                == .write(.delivered(row.token, selectedRegisteredAt: row.registeredAt, at: now, nextPushAt: now + 60_000)))
    }

    @Test(arguments: ["Unregistered", "ExpiredToken"])
    func fourTenDeletesUnlessRegisteredAgainAfterItsTimestamp(reason: String) {
        #expect(
            decide(.status(410, reason, timestamp: now - 5))
                == OutcomeDecision(
                    .write(.unregistered(row.token, registeredAtOrBefore: now - 5, reason: reason, nextPushAt: now + 300_000)),
                    tally: .removed(reason)))
        // Without a timestamp, only the registration the push was sent for is deleted.
        #expect(
            decide(.status(410, reason)).action
                == .write(
                    .unregistered(row.token, registeredAtOrBefore: row.registeredAt, reason: reason, nextPushAt: now + 300_000)))
    }

    @Test(arguments: ["BadDeviceToken", "DeviceTokenNotForTopic"])
    func badDeviceTokensAskTheGuardToDelete(reason: String) {
        #expect(
            decide(.status(400, reason))
                == OutcomeDecision(
                    .deleteUnlessGuarded(.delete(row.token, registeredAtOrBefore: row.registeredAt), reason: reason)))
    }

    @Test func anExpiredProviderTokenIsRetriedOnceWithANewToken() {
        #expect(decide(.status(403, "ExpiredProviderToken")) == OutcomeDecision(.retryWithNewToken))
        #expect(
            decide(.status(403, "ExpiredProviderToken"), isRetry: true)
                == OutcomeDecision(
                    .write(.failed(row.token, reason: "ExpiredProviderToken", nextPushAt: nil)),
                    tally: .failed("ExpiredProviderToken")))
    }

    @Test(arguments: [
        (403, "InvalidProviderToken"), (403, "MissingProviderToken"), (403, "BadEnvironmentKeyIdInToken"),
        (403, "BadEnvironmentKeyInToken"), (403, "Forbidden"), (400, "BadTopic"), (400, "TopicDisallowed"),
        (400, "MissingTopic"),
    ])
    func configurationFaultsStopSendingAndKeepEverything(status: Int, reason: String) throws {
        let decision = decide(.status(status, reason))
        guard case .stopSending(let fault) = decision.action else {
            Issue.record("expected stopSending, got \(decision.action)")
            return
        }
        #expect(fault.hasPrefix("APNs answered \(status) \(reason) for the sandbox environment; check APNS_KEY_ID"))
        #expect(fault.hasSuffix("Sending stopped; no registration was removed."))
        #expect(decision.tally == .fault(reason), "the reason counted once, no push counted as failed")
    }

    /// SPEC 5 now makes this a provider fault for its environment (issue #9); today it is server trouble.
    @Test func tooManyProviderTokenUpdatesIsKeptForTheNextSweep() {
        #expect(
            decide(.status(429, "TooManyProviderTokenUpdates"))
                == OutcomeDecision(
                    .write(.failed(row.token, reason: "TooManyProviderTokenUpdates", nextPushAt: nil)),
                    tally: .failed("TooManyProviderTokenUpdates")))
    }

    /// SPEC 5 now makes these provider faults for their environment (issue #9); today they are
    /// "any other 4xx".
    @Test(arguments: [
        (403, "UnrelatedKeyIdInToken"), (404, "BadPath"), (400, "BadPriority"), (400, "BadExpirationDate"),
        (400, "InvalidPushType"), (400, "BadMessageId"), (413, "PayloadTooLarge"), (400, "PayloadEmpty"),
        (405, "MethodNotAllowed"),
    ])
    func answersTheSameForEveryPushAreKeptOneIntervalLater(status: Int, reason: String) {
        #expect(decide(.status(status, reason)) == rejected(status, reason))
    }

    @Test(arguments: [
        APNsAnswer.status(429, "TooManyRequests"), .status(500, "InternalServerError"), .status(503, "ServiceUnavailable"),
        .status(503, "Shutdown"), .status(502), .failed(.operationTimedOut), .failed(.couldNotConnect),
        .failed(.peerFailedVerification),
    ])
    func serverTroubleAndTransportFailuresAreKeptForTheNextSweep(answer: APNsAnswer) {
        #expect(
            decide(answer)
                == OutcomeDecision(
                    .write(.failed(row.token, reason: answer.reason, nextPushAt: nil)), tally: .failed(answer.reason)))
    }

    @Test(arguments: [(400, "BadCollapseId"), (400, "DuplicateHeaders"), (403, "BadCertificate"), (418, nil)])
    func anyOtherClientErrorIsKeptOneIntervalLaterAndLogged(status: Int, reason: String?) {
        #expect(decide(.status(status, reason)) == rejected(status, reason ?? "HTTP\(status)"))
    }

    @Test func reasonsAreAPNsOwnOrNamedByStatusOrLibcurlCode() {
        #expect(APNsAnswer.status(410, "Unregistered").reason == "Unregistered")
        #expect(APNsAnswer.status(502).reason == "HTTP502")
        #expect(APNsAnswer.failed(.operationTimedOut).reason == "Timeout")
        #expect(APNsAnswer.failed(.couldNotConnect).reason == "Transport(7): Couldn't connect to server")
    }

    func rejected(_ status: Int, _ reason: String) -> OutcomeDecision {
        OutcomeDecision(
            .write(.failed(row.token, reason: reason, nextPushAt: now + 300_000)), tally: .failed(reason),
            logLine: "APNs rejected a push to \(row.token.logPrefix): \(status) \(reason)")
    }
}
