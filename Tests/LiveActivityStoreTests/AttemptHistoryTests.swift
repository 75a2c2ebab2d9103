import LiveActivityStore
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore

/// The attempt history and the hourly figures of SPEC 4 (issue 16): the last 20 answers per
/// registration, gone with it; the figures kept apart, untouched by any deletion. Each test takes
/// its engine as its argument; its batches write answers as the sweep does, through the engine's
/// contract.
@Suite struct AttemptHistoryTests {
    let t0: Int64 = 1_800_000_000_000 - 1_800_000_000_000 % 3_600_000

    func token(_ seed: Int) -> PushToken { PushToken(trusted: sampleToken(seed)) }

    func register(_ seed: Int, type: ActivityType = .charging, interval: Int? = nil, in database: TestDatabase) throws {
        try database.register(
            token(seed), type: type, environment: .production, now: t0, expiresAt: t0 + 1000, cap: 100, interval: interval)
    }

    func answered(
        _ seed: Int, at time: Int64, status: Int? = 200, reason: String? = nil, apnsID: String? = "A-1",
        previous: Int64? = nil
    ) -> AnsweredPush {
        AnsweredPush(
            key: .wake(token(seed)),
            attempt: PushAttempt(
                token: token(seed), sentAt: time - 10, answeredAt: time, status: status, reason: reason, apnsID: apnsID),
            activityType: .charging, environment: .production, previousDeliveryAt: previous)
    }

    func attempts(_ seed: Int, in database: TestDatabase) throws -> [PushAttempt] {
        guard case .found(let history) = try database.history(sampleToken(seed)) else { return [] }
        return history.attempts
    }

    /// The hourly figures, one line a row (SQL: the real engines only).
    func hours(in database: TestDatabase) throws -> [String] {
        try database.rows(
            "SELECT hour, activity_type, environment, registrations, delivered, acked FROM delivery_hours ORDER BY 1, 2, 3"
        ).map { row in row.map { $0 ?? "-" }.joined(separator: " ") }
    }

    @Test(arguments: TestEngine.every)
    func eachAnswerIsKeptWithItsStatusReasonAndApnsIDNewestFirst(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "attempts")
        try register(1, in: database)
        try database.apply(
            [], answered: [answered(1, at: t0 + 1000, status: 503, reason: "ServiceUnavailable", apnsID: "B-2")])
        try database.apply(
            [], answered: [answered(1, at: t0 + 2000, status: nil, reason: "CURLE_OPERATION_TIMEDOUT", apnsID: nil)])
        try database.apply([], answered: [answered(1, at: t0 + 3000, apnsID: "C-3")])
        let kept = try attempts(1, in: database)
        #expect(kept.map(\.answeredAt) == [t0 + 3000, t0 + 2000, t0 + 1000])
        #expect(kept.map(\.status) == [200, nil, 503])
        #expect(kept.map(\.reason) == [nil, "CURLE_OPERATION_TIMEDOUT", "ServiceUnavailable"])
        #expect(kept.map(\.apnsID) == ["C-3", nil, "B-2"])
        #expect(kept.first?.sentAt == t0 + 2990)
    }

    @Test(arguments: TestEngine.every)
    func onlyTheLastTwentyAreKept(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "attempts")
        try register(1, in: database)
        try register(2, in: database)
        for index in 0..<25 {
            try database.apply([], answered: [answered(1, at: t0 + Int64(index) * 1000), answered(2, at: t0 + Int64(index))])
        }
        let kept = try attempts(1, in: database)
        #expect(kept.count == 20)
        #expect(kept.first?.answeredAt == t0 + 24_000 && kept.last?.answeredAt == t0 + 5000)
        #expect(try attempts(2, in: database).count == 20)
        // Twenty 200s with their UUIDs stay inside the row's own page (no overflow page to rewrite).
        if database.kind == .sqlite {
            #expect((try database.scalar("SELECT max(length(attempts)) FROM push_targets") ?? 0) <= 20 * 40)
        }
    }

    @Test(arguments: TestEngine.real)
    func attemptsGoWithTheRegistrationAndThePastHoursStay(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "attempts")
        try register(1, in: database)
        try register(2, in: database)
        try register(3, in: database)
        try database.apply([], answered: [answered(1, at: t0 + 10), answered(2, at: t0 + 20), answered(3, at: t0 + 30)])
        let figures = try hours(in: database)
        #expect(figures == ["\(t0 / 3_600_000) charging production 3 3 0"])

        // Unregistered by the app, deleted on APNs's word, and expired.
        #expect(try database.unregister(token(1)))
        try database.apply([.delete(.wake(token(2)), registeredAtOrBefore: t0)])
        #expect(try database.reading { try $0.expire(registeredAtOrBefore: t0) } == 1)

        #expect(try database.scalar("SELECT count(*) FROM push_targets") == 0, "the history went with them")
        #expect(try hours(in: database) == figures, "deleting a registration never rewrites a past hour")
        // Registered again: a new story.
        try register(1, in: database)
        #expect(try attempts(1, in: database).isEmpty)
    }

    @Test(arguments: TestEngine.real)
    func anAnswerForARegistrationAlreadyGoneIsCountedButNotKept(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "attempts")
        try register(1, in: database)
        try database.apply([.delete(.wake(token(1)), registeredAtOrBefore: t0)], answered: [answered(1, at: t0 + 10)])
        try register(1, in: database)
        #expect(try attempts(1, in: database).isEmpty, "nothing was kept for the deleted registration")
        #expect(try hours(in: database) == ["\(t0 / 3_600_000) charging production 1 1 0"])
    }

    @Test(arguments: TestEngine.real)
    func aRegistrationCountsOncePerHourItWasDelivered(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "attempts")
        try register(1, in: database)
        let hour = t0 / 3_600_000
        try database.apply([], answered: [answered(1, at: t0 + 10, previous: nil)])
        try database.apply([], answered: [answered(1, at: t0 + 300_010, previous: t0 + 10)])
        try database.apply([], answered: [answered(1, at: t0 + 3_600_010, previous: t0 + 300_010)])
        try database.apply([], answered: [answered(1, at: t0 + 3_600_020, status: 500, reason: "InternalServerError")])
        #expect(try hours(in: database) == ["\(hour) charging production 1 2 0", "\(hour + 1) charging production 1 1 0"])
    }

    @Test(arguments: TestEngine.real)
    func figuresOlderThanSevenDaysArePrunedWithTheRunHistory(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "attempts")
        try register(1, in: database)
        try database.apply([], answered: [answered(1, at: t0)])
        var summary = SweepSummary()
        summary.startedAt = t0 + 7 * 86_400_000
        try database.record(summary)
        #expect(try hours(in: database).count == 1, "7 days back is kept")
        summary.startedAt = t0 + 7 * 86_400_000 + 3_600_000
        try database.record(summary)
        #expect(try hours(in: database).isEmpty)
    }

    @Test(arguments: TestEngine.every)
    func aPrefixFindsOneRegistrationByTheKeyRange(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "attempts")
        try register(1, in: database)
        try register(2, in: database)
        #expect(try database.history("ab000000") == .ambiguous(count: 2))
        #expect(try database.history("cd000000") == .notRegistered)
        guard case .found(let history) = try database.history(sampleToken(2)) else {
            Issue.record("the whole token names one registration")
            return
        }
        #expect(history.registration.token.hex == sampleToken(2))
        #expect(DeviceHistory.prefix("AB00ABCD") == "ab00abcd")
        #expect(DeviceHistory.prefix("ab00abc") == nil, "7 digits")
        #expect(DeviceHistory.prefix("ab00abcg") == nil)
        if database.kind == .sqlite {
            // The registrations' own tokens by the primary key, the widget extensions' by their partial index.
            let plan = try database.rows(
                """
                EXPLAIN QUERY PLAN
                SELECT registration_token FROM push_targets
                WHERE registration_token >= 'ab' AND registration_token < 'abg' AND push_kind = 'wake'
                UNION SELECT registration_token FROM push_targets WHERE push_token >= 'ab' AND push_token < 'abg' AND push_kind <> 'wake'
                ORDER BY 1 LIMIT 2
                """
            ).map { $0[3] ?? "" }
            #expect(
                plan.contains { $0.contains("SEARCH") && $0.contains("registration_token>? AND registration_token<?") },
                "\(plan)")
            #expect(
                plan.contains {
                    $0.contains("SEARCH") && $0.contains("push_targets_by_own_token")
                        && $0.contains("push_token>? AND push_token<?")
                }, "\(plan)")
            #expect(!plan.contains { $0.hasPrefix("SCAN") }, "\(plan)")
        }
    }
}
