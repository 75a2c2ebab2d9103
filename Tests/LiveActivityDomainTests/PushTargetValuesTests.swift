import TestSupport
import Testing

@testable import LiveActivityDomain

/// The domain's values of push targets (SPEC 1, 4, 5, issue 31): which target a key names, its
/// kind's interval and schedule, and what a registration reads of its wake target.
@Suite struct PushTargetValuesTests {
    let device = PushToken(trusted: sampleToken(1))
    let extensionToken = PushToken(trusted: testToken(2))

    @Test func aTargetKeyNamesTheRegistrationAndTheKindInTheDueOrder() {
        let wake = TargetKey.wake(device)
        let widgets = TargetKey(registration: device, kind: .widgets)
        #expect(wake.registration == device && wake.kind == .wake)
        #expect(wake != widgets)
        #expect(wake < widgets, "a registration's wake target before its widgets target")
        #expect(widgets < TargetKey.wake(PushToken(trusted: sampleToken(2))), "then the next registration")
        #expect(widgets.description == "ab000000…/widgets", "the registration's token by its first 8 characters")
        let due = [
            DuePosition(nextPushAt: 2, key: wake), DuePosition(nextPushAt: 1, key: widgets),
            DuePosition(nextPushAt: 1, key: wake),
        ].sorted()
        #expect(due.map(\.nextPushAt) == [1, 1, 2] && due.map(\.key.kind) == [.wake, .widgets, .wake])
    }

    @Test func aWidgetsIntervalIsItsSettingsClampedToTheMaximum() {
        var policy = IntervalPolicy()
        #expect(policy.effectiveSeconds(.widgets, .debug, requested: nil) == 1800, "the default of LIVEACTIVITY_INTERVAL_WIDGETS")
        #expect(policy.effectiveSeconds(.widgets, .charging, requested: 60) == 1800, "never more often")
        #expect(policy.effectiveSeconds(.widgets, .charging, requested: 2700) == 2700)
        #expect(policy.effectiveSeconds(.widgets, .charging, requested: 86_400) == 3600, "LIVEACTIVITY_INTERVAL_MAX")
        #expect(policy.effectiveSeconds(.wake, .debug, requested: nil) == 60, "a wake's floor is its type's")
        policy.kindSeconds[.widgets] = 900
        policy.maximumSeconds = 600
        #expect(policy.effectiveSeconds(.widgets, .charging, requested: 300) == 900, "a maximum below the floor never wins")
        #expect(policy.effectiveMilliseconds(.widgets, .charging, requested: nil) == 900_000)
    }

    /// SPEC 5.5: consecutive widget pushes of a target are between I and 1.1 x I + 60 s apart,
    /// spread by the token so devices do not reload together; a wake is due one interval on.
    @Test func aWidgetsTargetIsDueOneIntervalOnPlusItsOwnShareOfATenth() {
        let now: Int64 = 1_800_000_000_000
        let interval: Int64 = 1_800_000
        #expect(IntervalPolicy.nextPush(after: now, interval: interval, kind: .wake, token: device) == now + interval)
        var offsets = Set<Int64>()
        for seed in 0..<200 {
            let token = PushToken(trusted: testToken(seed))
            let next = IntervalPolicy.nextPush(after: now, interval: interval, kind: .widgets, token: token)
            #expect(next - now >= interval && next - now <= interval + interval / 10 + 60_000, "\(next - now)")
            #expect(
                next == IntervalPolicy.nextPush(after: now, interval: interval, kind: .widgets, token: token),
                "the same each time")
            offsets.insert(IntervalPolicy.spread(of: token, interval: interval))
        }
        #expect(offsets.count > 100, "spread over the tenth: \(offsets.count) distinct of 200")
        #expect(IntervalPolicy.spread(of: device, interval: 5) == 0, "nothing to spread under 10 ms")
    }

    @Test func aRegistrationReadsItsWakeTargetByTheNamesItAlwaysHad() {
        let wake = PushTarget(
            kind: .wake, token: device, requestedInterval: 900, nextPushAt: 5, lastPushAt: 4, pushCount: 3,
            consecutiveFailures: 2,
            lastError: "ServiceUnavailable")
        let widgets = PushTarget(kind: .widgets, token: extensionToken, requestedInterval: 3600, nextPushAt: 7, pushCount: 9)
        let registration = Registration(
            token: device, activityType: .charging, environment: .sandbox, registeredAt: 1, expiresAt: 2, wake: wake,
            others: [widgets])
        #expect(registration.targets.map(\.kind) == [.wake, .widgets])
        #expect(registration.target(.widgets) == widgets && registration.target(.wake) == wake)
        #expect(registration.wakeupCount == 3 && registration.nextPushAt == 5 && registration.lastPushAt == 4)
        #expect(registration.consecutiveFailures == 2 && registration.lastError == "ServiceUnavailable")
        #expect(registration.requestedInterval == 900, "the wake's, not the widgets'")
        let history = DeviceHistory(registration: registration)
        #expect(history.attempts.isEmpty)
    }

    @Test func scopesNameAnEnvironmentAndAKind() {
        #expect(PushScope(environment: .sandbox, kind: .wake).description == "sandbox")
        #expect(PushScope(environment: .sandbox, kind: .widgets).description == "sandbox widgets")
        let whole = FaultScope(environment: .production)
        let widgetsOnly = FaultScope(environment: .production, kind: .widgets)
        #expect(
            whole.covers(.defaultApp, .production, .wake) && whole.covers(.defaultApp, .production, .widgets)
                && !whole.covers(.defaultApp, .sandbox, .wake))
        #expect(widgetsOnly.covers(.defaultApp, .production, .widgets) && !widgetsOnly.covers(.defaultApp, .production, .wake))
        #expect(widgetsOnly.description == "production widgets" && whole.description == "production")
        #expect(PushScope(environment: .production, kind: .widgets).faultScope == widgetsOnly)
    }

    @Test func aTokenErrorNamesTheFieldItWasReadFrom() {
        #expect(PushTokenError.notHex.description == "pushToken must contain hex digits only")
        #expect(PushTokenError.notHex.description(field: "widgetPushToken") == "widgetPushToken must contain hex digits only")
        #expect(
            PushTokenError.tooShort.description(field: "widgetPushToken")
                == "widgetPushToken is too short (at least 64 hex characters)")
    }

    @Test func onlyAWakeTargetOwnsItsRegistration() {
        #expect(PushKind.wake.ownsRegistration && !PushKind.widgets.ownsRegistration)
        #expect(PushKind(name: "widgets") == .widgets && PushKind(name: "controls") == nil)
        #expect(PushKind.widgets.topic(forBundleID: "com.example.app") == "com.example.app.push-type.widgets")
    }
}
