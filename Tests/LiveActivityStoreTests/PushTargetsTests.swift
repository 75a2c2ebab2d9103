import LiveActivityFigures
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore

/// A registration and its push targets (SPEC 3, 4, issue 31), on this run's engine: one wake
/// target (the device token) and at most one target of each other kind (a widgets target: the
/// widget extension's own token); a refresh replaces the registration whole, and every way a
/// registration goes takes its targets with it, while the outcome of another kind's push never
/// takes the wake target. Each test takes its engine as its argument, and the other kind too
/// (`PushKind.others`): what holds for a widgets target holds for every kind with its own token.
@Suite struct PushTargetsTests {
    let now: Int64 = 1_800_000_000_000 - 1_800_000_000_000 % 3_600_000
    let hour: Int64 = 3_600_000

    func token(_ seed: Int) -> PushToken { PushToken(trusted: sampleToken(seed)) }
    /// The token of a target of another kind (a widget extension's): nothing like its device's.
    func otherToken(_ seed: Int) -> PushToken { PushToken(trusted: testToken(1000 + seed)) }
    /// The key of registration `seed`'s target of `kind`.
    func target(_ kind: PushKind, of seed: Int) -> TargetKey { TargetKey(registration: token(seed), kind: kind) }
    /// A target of `kind` as a registration asks for it: the token of `seed`, and its interval.
    func other(_ kind: PushKind, _ seed: Int, interval: Int? = nil) -> NewRegistration.Other {
        NewRegistration.Other(kind: kind, token: otherToken(seed), requestedInterval: interval)
    }

    /// Registers `seed` with its wake target and the target of another kind in `other`, if any.
    @discardableResult
    func register(
        _ seed: Int, with other: NewRegistration.Other? = nil, environment: APNsEnvironment = .production,
        at time: Int64? = nil, unprovenCap: Int = 1_000_000, cap: Int = 1_000_000, in database: TestDatabase
    ) throws -> StoreWrite.RegisterResult {
        try database.register(
            token(seed), environment: environment, now: time ?? now, cap: cap, unprovenCap: unprovenCap,
            others: other.map { [$0] } ?? [])
    }

    /// The lines of `lines` in the order SQL sorts them (by kind name, as `wake` and another's).
    func sorted(_ lines: String...) -> [String] { lines.sorted() }

    /// The stored targets, `registration/kind:token`, by the registration's and kind's order (SQL).
    func rows(in database: TestDatabase) throws -> [String] {
        try database.rows("SELECT registration_token, push_kind, push_token FROM push_targets ORDER BY 1, 2").map {
            "\(($0[0] ?? "").prefix(8))/\($0[1] ?? ""):\(($0[2] ?? "").prefix(8))"
        }
    }

    /// `kind/type/environment:targets:unproven`, from the counters and from a scan (they agree; SQL).
    func counters(in database: TestDatabase) throws -> [String] {
        func rows(_ sql: String) throws -> [String] {
            try database.rows(sql).map { "\($0[0] ?? "")/\($0[1] ?? "")/\($0[2] ?? ""):\($0[3] ?? ""):\($0[4] ?? "")" }
        }
        let counters = try rows(
            "SELECT push_kind, activity_type, environment, n, unproven FROM target_groups WHERE n > 0 ORDER BY 1, 2, 3")
        let scan = try rows(
            """
            SELECT push_kind, activity_type, environment, count(*), sum(CASE WHEN last_push_at IS NULL THEN 1 ELSE 0 END)
            FROM push_targets GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
            """)
        #expect(counters == scan, "the counters are the table's")
        return counters
    }

    /// The counts the caps go by, as the responder reads them.
    func registrationCounts(in database: TestDatabase) throws -> RegistrationCounts {
        let statements = try database.engine.openRegistrations()
        defer { statements.close() }
        return try statements.registrationCounts()
    }

    func groups(in database: TestDatabase) throws -> [String] {
        try database.reading { try $0.groups() }.map { "\($0.kind) \($0.activityType)/\($0.environment)=\($0.count)" }
    }

    /// A push to `key` answered 200 at `time`, written as the sweep writes it.
    func delivered(
        _ key: TargetKey, pushedTo target: PushToken, at time: Int64, registeredAt: Int64? = nil, in database: TestDatabase
    ) throws {
        try database.apply(
            [.delivered(key, selectedRegisteredAt: registeredAt ?? now, at: time, nextPushAt: time + hour)],
            answered: [
                AnsweredPush(
                    key: key,
                    attempt: PushAttempt(
                        token: target, sentAt: time - 10, answeredAt: time, status: 200, reason: nil, apnsID: "ID-\(key.kind)"),
                    activityType: .charging, environment: .production, previousDeliveryAt: nil)
            ])
    }

    @Test(arguments: TestEngine.real, PushKind.others)
    func anotherKindsTokenStoresASecondTargetOfTheSameRegistration(engine: TestEngine, kind: PushKind) throws {
        let database = try TestDatabase(engine, label: "targets")
        #expect(try register(1, with: other(kind, 1, interval: 3600), in: database) == .created)
        let registration = try #require(try database.registration(token(1)))
        #expect(registration.token == token(1))
        #expect(registration.targets.map(\.kind) == [.wake, kind])
        let wake = try #require(registration.target(.wake))
        #expect(wake.token == token(1) && wake.requestedInterval == nil && wake.nextPushAt == now)
        let target = try #require(registration.target(kind))
        #expect(target.token == otherToken(1), "its own token")
        #expect(target.requestedInterval == 3600, "the interval it asked for")
        #expect(target.nextPushAt == now, "due at the next sweep, as its wake target")
        #expect(target.lastPushAt == nil && target.pushCount == 0 && target.consecutiveFailures == 0)
        #expect(try groups(in: database) == sorted("wake charging/production=1", "\(kind) charging/production=1"))
        #expect(try counters(in: database) == sorted("wake/charging/production:1:1", "\(kind)/charging/production:1:1"))
        #expect(try database.reading { try $0.registrationCount() } == 1, "one registration, two targets")
        #expect(try database.count() == 1)
    }

    @Test(arguments: TestEngine.real, PushKind.others)
    func aRefreshWithoutAnotherKindsTokenDeletesItsTarget(engine: TestEngine, kind: PushKind) throws {
        let database = try TestDatabase(engine, label: "targets")
        try register(1, with: other(kind, 1), in: database)
        #expect(try database.registration(token(1))?.targets.map(\.kind) == [.wake, kind])
        #expect(try register(1, at: now + 1000, in: database) == .refreshed)
        let registration = try #require(try database.registration(token(1)))
        #expect(registration.targets.map(\.kind) == [.wake])
        #expect(registration.registeredAt == now + 1000)
        #expect(try rows(in: database) == ["\(sampleToken(1).prefix(8))/wake:\(sampleToken(1).prefix(8))"])
        #expect(try groups(in: database) == ["wake charging/production=1"])
        #expect(try counters(in: database) == ["wake/charging/production:1:1"])
        #expect(try database.count() == 1)
    }

    @Test(arguments: TestEngine.every, PushKind.others)
    func aRefreshWithTheSameTokenOfAnotherKindKeepsItsPushesAndTakesItsNewInterval(
        engine: TestEngine, kind: PushKind
    ) throws {
        let database = try TestDatabase(engine, label: "targets")
        try register(1, with: other(kind, 1, interval: 3600), in: database)
        try delivered(target(kind, of: 1), pushedTo: otherToken(1), at: now + 5000, in: database)
        #expect(try register(1, with: other(kind, 1, interval: 7200), at: now + hour, in: database) == .refreshed)
        let target = try #require(try database.registration(token(1), attempts: true)?.target(kind))
        #expect(target.token == otherToken(1))
        #expect(target.requestedInterval == 7200)
        #expect(target.nextPushAt == now + hour, "due at once, as a refreshed registration is")
        #expect(target.lastPushAt == now + 5000 && target.pushCount == 1, "its 200 is kept in the same environment")
        #expect(target.attempts.map(\.answeredAt) == [now + 5000])
    }

    @Test(arguments: TestEngine.real, PushKind.others)
    func aRefreshWithAnotherTokenOfAnotherKindReplacesItsTarget(engine: TestEngine, kind: PushKind) throws {
        let database = try TestDatabase(engine, label: "targets")
        try register(1, with: other(kind, 1, interval: 3600), in: database)
        try delivered(target(kind, of: 1), pushedTo: otherToken(1), at: now + 5000, in: database)
        try delivered(.wake(token(1)), pushedTo: token(1), at: now + 5000, in: database)
        #expect(try counters(in: database) == sorted("wake/charging/production:1:0", "\(kind)/charging/production:1:0"))

        #expect(try register(1, with: other(kind, 2), at: now + hour, in: database) == .refreshed)
        let registration = try #require(try database.registration(token(1), attempts: true))
        let target = try #require(registration.target(kind))
        #expect(target.token == otherToken(2), "the new token")
        #expect(target.requestedInterval == nil, "the interval of the new request: none")
        #expect(target.lastPushAt == nil && target.pushCount == 0, "a new token is unproven")
        #expect(target.attempts.isEmpty, "the old token's attempts are not the new one's")
        #expect(target.nextPushAt == now + hour)
        let wake = try #require(registration.target(.wake))
        #expect(wake.lastPushAt == now + 5000 && wake.pushCount == 1 && wake.attempts.count == 1, "the wake target is kept")
        #expect(try counters(in: database) == sorted("wake/charging/production:1:0", "\(kind)/charging/production:1:1"))
        #expect(try rows(in: database).count == 2)
    }

    /// SPEC 5, guard: a token proven in one environment is not proven in the other, for either
    /// kind of target.
    @Test(arguments: TestEngine.real, PushKind.others)
    func aRefreshInAnotherEnvironmentForgetsTheTargets200sAndOneInTheSameKeepsThem(
        engine: TestEngine, kind: PushKind
    ) throws {
        let database = try TestDatabase(engine, label: "targets")
        try register(1, with: other(kind, 1), in: database)
        try delivered(.wake(token(1)), pushedTo: token(1), at: now + 5000, in: database)
        try delivered(target(kind, of: 1), pushedTo: otherToken(1), at: now + 6000, in: database)
        #expect(try counters(in: database) == sorted("wake/charging/production:1:0", "\(kind)/charging/production:1:0"))

        #expect(try register(1, with: other(kind, 1), environment: .production, at: now + hour, in: database) == .refreshed)
        var registration = try #require(try database.registration(token(1)))
        #expect(registration.target(.wake)?.lastPushAt == now + 5000)
        #expect(registration.target(kind)?.lastPushAt == now + 6000)
        #expect(try counters(in: database) == sorted("wake/charging/production:1:0", "\(kind)/charging/production:1:0"))
        #expect(try registrationCounts(in: database).unproven(of: .defaultApp, in: .production) == 0)

        #expect(try register(1, with: other(kind, 1), environment: .sandbox, at: now + 2 * hour, in: database) == .refreshed)
        registration = try #require(try database.registration(token(1)))
        #expect(registration.environment == .sandbox)
        #expect(registration.target(.wake)?.lastPushAt == nil, "unproven in sandbox")
        #expect(registration.target(kind)?.lastPushAt == nil, "unproven in sandbox")
        #expect(registration.targets.map(\.pushCount) == [1, 1], "their lifetime counts stay")
        #expect(try database.rows("SELECT count(*) FROM push_targets WHERE environment = 'sandbox'") == [["2"]])
        #expect(try counters(in: database) == sorted("wake/charging/sandbox:1:1", "\(kind)/charging/sandbox:1:1"))
        let counts = try registrationCounts(in: database)
        #expect(
            counts.total(of: .defaultApp) == 1 && counts.unproven(of: .defaultApp, in: .sandbox) == 1
                && counts.unproven(of: .defaultApp, in: .production) == 0)
    }

    @Test(arguments: TestEngine.real, PushKind.others)
    func unregisteringDeletesBothTargets(engine: TestEngine, kind: PushKind) throws {
        let database = try TestDatabase(engine, label: "targets")
        try register(1, with: other(kind, 1), in: database)
        try register(2, with: other(kind, 2), in: database)
        #expect(try database.unregister(token(1)))
        #expect(try database.registration(token(1)) == nil)
        #expect(
            try rows(in: database).allSatisfy { $0.hasPrefix(String(sampleToken(2).prefix(8))) } && rows(in: database).count == 2)
        #expect(try groups(in: database) == sorted("wake charging/production=1", "\(kind) charging/production=1"))
        #expect(try database.count() == 1)
        #expect(try !database.unregister(token(1)), "gone")
    }

    @Test(arguments: TestEngine.real, PushKind.others)
    func expiryDeletesBothTargetsAndCountsOneRegistration(engine: TestEngine, kind: PushKind) throws {
        let database = try TestDatabase(engine, label: "targets")
        try register(1, with: other(kind, 1), at: now, in: database)
        try register(2, at: now + 1000, in: database)
        try register(3, with: other(kind, 3), at: now + 2 * hour, in: database)
        let counted = try database.reading { try $0.countExpired(registeredAtOrBefore: now + 1000) }
        #expect(counted == 2, "registrations, not targets")
        #expect(try database.reading { try $0.expire(registeredAtOrBefore: now + 1000) } == 2)
        #expect(try database.registration(token(1)) == nil && database.registration(token(2)) == nil)
        #expect(try database.registration(token(3))?.targets.map(\.kind) == [.wake, kind])
        #expect(try rows(in: database).count == 2)
        #expect(try counters(in: database) == sorted("wake/charging/production:1:1", "\(kind)/charging/production:1:1"))
    }

    /// SPEC 5.6: another kind's target's 410 or BadDeviceToken deletes it alone; a wake target's
    /// deletes its registration, every target of it.
    @Test(arguments: TestEngine.real, PushKind.others)
    func anOutcomeDeletesAnotherKindsTargetAloneAndAWakeTargetWithItsRegistration(
        engine: TestEngine, kind: PushKind
    ) throws {
        let database = try TestDatabase(engine, label: "targets")
        try register(1, with: other(kind, 1), in: database)
        try register(2, with: other(kind, 2), in: database)
        let otherDeleted = try database.apply([.delete(target(kind, of: 1), registeredAtOrBefore: now)])
        #expect(otherDeleted == 1)
        let first = try #require(try database.registration(token(1)))
        #expect(first.targets.map(\.kind) == [.wake], "the wake target stays")
        #expect(try database.count() == 2)

        try database.apply([.delete(.wake(token(2)), registeredAtOrBefore: now)])
        #expect(try database.registration(token(2)) == nil)
        #expect(
            try database.rows("SELECT count(*) FROM push_targets WHERE registration_token = '\(sampleToken(2))'") == [["0"]],
            "its \(kind) target went with it")
        #expect(try database.count() == 1)
        #expect(try counters(in: database) == ["wake/charging/production:1:1"])
    }

    /// A registration made again after the push was selected keeps its target of another kind
    /// (SPEC 5.6: "unless it was registered again").
    @Test(arguments: TestEngine.every, PushKind.others)
    func anotherKindsTargetRegisteredAgainAfterItsPushIsNotDeleted(engine: TestEngine, kind: PushKind) throws {
        let database = try TestDatabase(engine, label: "targets")
        try register(1, with: other(kind, 1), at: now + hour, in: database)
        #expect(try database.apply([.delete(target(kind, of: 1), registeredAtOrBefore: now)]) == 0)
        #expect(try database.registration(token(1))?.targets.map(\.kind) == [.wake, kind])
    }

    @Test(arguments: TestEngine.every, PushKind.others)
    func historyFindsARegistrationByAnotherKindsTokenWithEachTargetsAttempts(engine: TestEngine, kind: PushKind) throws {
        let database = try TestDatabase(engine, label: "targets")
        try register(1, with: other(kind, 1), in: database)
        try register(2, in: database)
        try delivered(.wake(token(1)), pushedTo: token(1), at: now + 5000, in: database)
        try delivered(target(kind, of: 1), pushedTo: otherToken(1), at: now + 6000, in: database)
        for prefix in [String(otherToken(1).hex.prefix(10)), otherToken(1).hex, String(sampleToken(1))] {
            guard case .found(let history) = try database.history(prefix) else {
                Issue.record("\(prefix) names the registration of token 1")
                continue
            }
            #expect(history.registration.token == token(1), "the registration, not the other target's token")
            #expect(history.registration.targets.map(\.kind) == [.wake, kind])
            #expect(history.registration.target(.wake)?.attempts.map(\.answeredAt) == [now + 5000])
            #expect(history.registration.target(kind)?.attempts.map(\.answeredAt) == [now + 6000])
            #expect(history.registration.target(kind)?.attempts.first?.apnsID == "ID-\(kind)")
            #expect(history.attempts.map(\.answeredAt) == [now + 5000], "the wake target's")
            // As `history` prints it: a wake's 200 is acked or not, another kind's push has no ack.
            let printed = history.text(now: now + 7000, policy: IntervalPolicy(), expiry: 8 * hour)
            let attemptLines = printed.split(separator: "\n").filter { $0.contains("  apns-id ") }
            #expect(attemptLines.count == 2 && attemptLines.first?.hasSuffix("  not acked") == true, "\(printed)")
            #expect(attemptLines.last?.hasSuffix("apns-id ID-\(kind)") == true, "\(printed)")
        }
        // A wake target is found by its own token only: a prefix of the device token matches
        // registrations, not the other target that carries the same registration token.
        #expect(try database.history("ab000000") == .ambiguous(count: 2))
        #expect(try database.history(String(testToken(999_999).prefix(12))) == .notRegistered)
    }

    @Test(arguments: TestEngine.every, PushKind.others)
    func aPrefixSharedByADeviceTokenAndAnotherRegistrationsOtherTokenIsAmbiguous(
        engine: TestEngine, kind: PushKind
    ) throws {
        let database = try TestDatabase(engine, label: "targets")
        // Registration 2's token of the other kind begins as registration 1's device token.
        let shared = String(sampleToken(1).prefix(40))
        let second = PushToken(trusted: testToken(7))
        try database.register(token(1), now: now)
        try database.register(
            second, now: now,
            others: [.init(kind: kind, token: PushToken(trusted: shared + String(repeating: "f", count: 24)))])
        #expect(try database.history(shared) == .ambiguous(count: 2))
        guard case .found(let history) = try database.history(shared + "ff") else {
            Issue.record("the other token's longer prefix names registration 2")
            return
        }
        #expect(history.registration.token == second)
        guard case .found(let first) = try database.history(sampleToken(1)) else {
            Issue.record("the whole device token names registration 1")
            return
        }
        #expect(first.registration.token == token(1))
    }

    /// SPEC 5: the unproven cap counts registrations (their wake targets): another kind's target,
    /// unproven too, never refuses a device.
    @Test(arguments: TestEngine.real, PushKind.others)
    func theCapsCountRegistrationsNotTargets(engine: TestEngine, kind: PushKind) throws {
        let database = try TestDatabase(engine, label: "targets")
        #expect(try register(1, with: other(kind, 1), unprovenCap: 2, in: database) == .created)
        #expect(
            try register(2, with: other(kind, 2), unprovenCap: 2, in: database) == .created,
            "two registrations, four unproven targets")
        #expect(throws: StoreError.unprovenCapacityReached(limit: 2, environment: .production)) {
            try register(3, unprovenCap: 2, in: database)
        }
        #expect(
            try register(1, with: other(kind, 3), unprovenCap: 2, in: database) == .refreshed,
            "a stored one refreshes, its other token new")
        let counts = try registrationCounts(in: database)
        #expect(counts.total(of: .defaultApp) == 2 && counts.unproven(of: .defaultApp, in: .production) == 2)
        #expect(throws: StoreError.capacityReached(limit: 2)) {
            try register(3, with: other(kind, 3), cap: 2, in: database)
        }
        #expect(try rows(in: database).count == 4, "nothing stored for the refused ones")
    }
}
