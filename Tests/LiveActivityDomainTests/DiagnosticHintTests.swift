import Testing

@testable import LiveActivityDomain

/// The one reading of a registration into hints (issue 50), as a table without a database: each
/// code from the values that make it, one hint per code in the codes' order, and when the next
/// wake goes as the cadence will decide it.
@Suite struct DiagnosticHintTests {
    let now: Int64 = 1_800_000_000_000
    let minute: Int64 = 60_000
    let expiry: Int64 = 8 * 3_600_000
    let token = PushToken(trusted: String(repeating: "ab", count: 32))
    let widgetToken = PushToken(trusted: String(repeating: "cd", count: 32))

    func registration(
        registeredAt: Int64? = nil, attempts: [PushAttempt] = [], lastError: String? = nil, cadence: CadenceState = .base,
        widget: PushTarget? = nil
    ) -> Registration {
        let registered = registeredAt ?? now - 60 * minute
        return Registration(
            token: token, activityType: .charging, environment: .production, registeredAt: registered,
            expiresAt: registered + expiry,
            wake: PushTarget(
                kind: .wake, token: token, nextPushAt: now, lastPushAt: attempts.first { $0.status == 200 }?.answeredAt,
                lastError: lastError, cadence: cadence, attempts: attempts),
            others: widget.map { [$0] } ?? [])
    }

    func attempt(_ minutesAgo: Int64, status: Int? = 200, acked: Bool = false) -> PushAttempt {
        let at = now - minutesAgo * minute
        return PushAttempt(
            token: token, sentAt: at - 20, answeredAt: at, status: status, reason: status == 200 ? nil : "ServiceUnavailable",
            apnsID: nil, ackedAt: acked ? at + 500 : nil, ackDelayMilliseconds: acked ? 500 : nil)
    }

    func codes(_ registration: Registration, widgetToken: PushToken? = nil) -> [DiagnosticHint.Code] {
        DiagnosticHint.hints(for: registration, policy: IntervalPolicy(), expiry: expiry, now: now, widgetToken: widgetToken)
            .map(\.code)
    }

    @Test func aRegistrationWithNothingWrongHasNoHints() {
        #expect(codes(registration()).isEmpty)
        #expect(codes(registration(attempts: [attempt(5, acked: true), attempt(10), attempt(15)])).isEmpty)
    }

    @Test func threeUnackedWakesSinceTheLastAckedOneSayThePhoneDidNotWake() {
        #expect(codes(registration(attempts: [attempt(5), attempt(10), attempt(15, acked: true)])).isEmpty)
        #expect(codes(registration(attempts: [attempt(5), attempt(10), attempt(15)])) == [.notWaking])
        // A failure between the 200s neither resets nor counts.
        #expect(
            codes(
                registration(attempts: [attempt(5), attempt(7, status: 503), attempt(10), attempt(15), attempt(20, acked: true)]))
                == [.notWaking])
        #expect(codes(registration(attempts: [attempt(5), attempt(7, status: 503), attempt(10)])).isEmpty)
    }

    @Test func anAnswerSinceTheLastDeliveryTellsWhoseSideItIsOn() {
        for reason in ["ServiceUnavailable", "TooManyRequests", "CURLE_COULDNT_CONNECT", "InvalidProviderToken", "HTTP500"] {
            #expect(codes(registration(lastError: reason)) == [.serverFault], "\(reason)")
        }
        // A rejection on a target still there: the mass-deletion guard held it.
        #expect(codes(registration(lastError: "BadDeviceToken")) == [.serverFault])
        for reason in ["Unregistered", "ExpiredToken", "HTTP410"] {
            #expect(codes(registration(lastError: reason)) == [.tokenRejected], "\(reason)")
        }
        let widget = PushTarget(kind: .widgets, token: widgetToken, nextPushAt: now, lastError: "Unregistered")
        let hints = DiagnosticHint.hints(
            for: registration(widget: widget), policy: IntervalPolicy(), expiry: expiry, now: now)
        #expect(hints.map(\.code) == [.tokenRejected] && hints[0].text.contains("widget extension's token"))
    }

    @Test func theCadenceSaysWhyWakesAreSpacedOutOrStopped() {
        #expect(codes(registration(cadence: CadenceState(device: DeviceState(backgroundRefresh: .restricted)))) == [.paused])
        #expect(
            codes(registration(cadence: CadenceState(device: DeviceState(activities: 0, backgroundRefresh: .denied)))) == [
                .noActivity
            ])
        let both = CadenceState(device: DeviceState(activities: 1, lowPower: true), unchangedAcks: 3)
        let hints = DiagnosticHint.hints(for: registration(cadence: both), policy: IntervalPolicy(), expiry: expiry, now: now)
        #expect(hints.map(\.code) == [.lowPower, .stretched])
        #expect(hints[1].text.contains("last 3 wake-ups") && hints[1].text.contains("every 20 min"))
    }

    @Test func anExpiryWithinHalfAnHourAndAMissingWidgetTargetAreSaid() {
        let late = registration(registeredAt: now - expiry + 29 * minute)
        let hints = DiagnosticHint.hints(for: late, policy: IntervalPolicy(), expiry: expiry, now: now)
        #expect(hints.map(\.code) == [.expiringSoon] && hints[0].text.contains("expires in 29 min"))
        #expect(codes(registration(registeredAt: now - expiry + 31 * minute)).isEmpty)
        #expect(codes(registration(), widgetToken: widgetToken) == [.noWidgetsTarget])
        let widget = PushTarget(kind: .widgets, token: widgetToken, nextPushAt: now)
        #expect(codes(registration(widget: widget), widgetToken: widgetToken).isEmpty)
        #expect(codes(registration(widget: widget), widgetToken: token).count == 1, "another widget token than stored")
    }

    @Test func hintsComeOnePerCodeInTheCodesOrder() {
        let everything = registration(
            registeredAt: now - expiry + minute, attempts: [attempt(1), attempt(2), attempt(3)], lastError: "Unregistered",
            cadence: CadenceState(device: DeviceState(lowPower: true)),
            widget: PushTarget(kind: .widgets, token: widgetToken, nextPushAt: now, lastError: "ServiceUnavailable"))
        #expect(codes(everything) == [.tokenRejected, .notWaking, .serverFault, .lowPower, .expiringSoon])
        #expect(DiagnosticHint.unregistered.map(\.code) == [.notRegistered])
        #expect(
            DiagnosticHint.json([.notRegistered])
                == #"[{"code":"notRegistered","text":"\#(DiagnosticHint.notRegistered.text)"}]"#)
    }

    @Test func theNextWakeIsWhereTheCadenceWillPushIt() {
        let cadence = IntervalPolicy().cadence(.charging, requested: nil)
        let registered = now - 60 * minute
        let lastPush = now - 4 * minute
        let stretched = CadenceState(unchangedAcks: 3)
        // Stored due at the next tick; the stretch holds it to ten minutes after the last push.
        #expect(
            cadence.nextPush(stretched, lastPushAt: lastPush, registeredAt: registered, storedNextPushAt: now + minute)
                == lastPush + 10 * minute)
        #expect(
            cadence.nextPush(.base, lastPushAt: lastPush, registeredAt: registered, storedNextPushAt: now + minute) == now
                + minute)
        // A back-off's due time is later: it holds.
        #expect(
            cadence.nextPush(.base, lastPushAt: lastPush, registeredAt: registered, storedNextPushAt: now + 30 * minute) == now
                + 30 * minute)
        #expect(cadence.nextPush(.base, lastPushAt: nil, registeredAt: registered, storedNextPushAt: now) == now)
        let paused = CadenceState(device: DeviceState(backgroundRefresh: .denied))
        #expect(cadence.nextPush(paused, lastPushAt: lastPush, registeredAt: registered, storedNextPushAt: now) == nil)
    }

    @Test func spansReadAsAPersonSaysThem() {
        #expect(DiagnosticHint.span(45_000) == "45 s")
        #expect(DiagnosticHint.span(300_000) == "5 min")
        #expect(DiagnosticHint.span(7_800_000) == "2 h 10 min")
        #expect(DiagnosticHint.span(7_200_000) == "2 h")
        #expect(DiagnosticHint.span(-5) == "0 s")
    }
}
