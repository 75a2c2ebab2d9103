import APNsHTTP2
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore
@testable import LiveActivitySweep

/// Due rows read a page at a time: every due row once, in the due order, while the sweep's own
/// writes move rows around behind and ahead of the cursor; an environment a fault stopped is
/// skipped, and what it left unread is held by one statement. On every engine (the test's argument).
@Suite struct DueCursorTests: SweepTimes {
    func makeCursor(
        _ store: any SweepStatements, cutoff: Int64, environments: [APNsEnvironment] = APNsEnvironment.allCases, pageSize: Int,
        readingAhead: Bool = false
    )
        -> DueCursor
    {
        DueCursor(store: store, cutoff: cutoff, environments: environments, pageSize: pageSize, readingAhead: readingAhead)
    }

    /// Without and with the next page read on a thread while this one is taken (the sweep's way).
    static let readingAhead = [false, true]

    @Test(arguments: TestEngine.real, readingAhead)
    func everyDueRowComesOnceInTheDueOrderAcrossPages(engine: TestEngine, readingAhead: Bool) throws {
        let fixture = try SweepFixture(engine, label: "due-cursor")
        // Three share a due time: the token orders them, and a page boundary falls among them.
        try fixture.register(1...10, at: t0)
        let store = try fixture.database.sweep()
        for seed in 1...7 { try fixture.setNextPush(seed, t0 - Int64(seed) * 1000) }
        try fixture.setNextPush(11, t0)  // not registered: no row
        try fixture.register(20...21, at: t0 + 60_000)  // due after the cutoff
        let cursor = makeCursor(store, cutoff: t0 + 30_000, pageSize: 3, readingAhead: readingAhead)
        var seen: [String] = []
        while let row = try cursor.next() { seen.append(row.token.hex) }
        let expected = (1...7).reversed().map { sampleToken($0) } + (8...10).map { sampleToken($0) }.sorted()
        #expect(seen == expected)
        #expect(try cursor.next() == nil, "stays at the end")
    }

    @Test(arguments: TestEngine.every, readingAhead)
    func aSkippedEnvironmentIsNotReadAnyMoreInThisPageOrLaterOnes(engine: TestEngine, readingAhead: Bool) throws {
        let fixture = try SweepFixture(engine, label: "due-cursor")
        for seed in 1...20 { try fixture.register([seed], seed.isMultiple(of: 2) ? .sandbox : .production, at: t0 + Int64(seed)) }
        let store = try fixture.database.sweep()
        let cursor = makeCursor(store, cutoff: t0 + 30_000, pageSize: 4, readingAhead: readingAhead)
        #expect(try cursor.next()?.token.hex == sampleToken(1))
        cursor.skip(.production)
        var rest: [String] = []
        while let row = try cursor.next() { rest.append(row.token.hex) }
        #expect(rest == stride(from: 2, through: 20, by: 2).map { sampleToken($0) })
        let none = makeCursor(store, cutoff: t0 + 30_000, environments: [.sandbox], pageSize: 4, readingAhead: readingAhead)
        none.skip(.sandbox)
        #expect(try none.next() == nil)
    }

    @Test(arguments: TestEngine.every)
    func holdingWhatAFaultLeftSparesTheDeliveredTheReRegisteredAndTheOtherEnvironment(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "due-cursor")
        for seed in 1...6 { try fixture.register([seed], at: t0) }
        try fixture.register([7], .sandbox, at: t0)
        let store = try fixture.database.sweep()
        let token = { (seed: Int) in PushToken(trusted: sampleToken(seed)) }
        // 1 got a 200 this sweep with a 1 s interval (still inside the cutoff); 2 registered again
        // during the sweep; 3 backs off past the cutoff.
        try fixture.database.apply([.delivered(.wake(token(1)), selectedRegisteredAt: t0, at: t0 + 100, nextPushAt: t0 + 1100)])
        try fixture.register([2], at: t0 + 200)
        try fixture.database.apply([
            .failed(.wake(token(3)), selectedRegisteredAt: t0, reason: "ServiceUnavailable", nextPushAt: t0 + 60_100)
        ])
        let groups = try store.unreachedGroups(in: .production, dueAtOrBefore: t0 + 30_000, registeredAtOrBefore: t0 + 50)
        #expect(groups == [IntervalGroup(kind: .wake, activityType: .charging, requestedInterval: nil)], "one group to hold")
        let held = try store.holdUnreached(
            in: .production, group: try #require(groups.first), dueAtOrBefore: t0 + 30_000, registeredAtOrBefore: t0 + 50,
            reason: "BadPriority", nextPushAt: t0 + 300_000)
        #expect(held == 3, "4, 5 and 6, never reached")
        func row(_ seed: Int) throws -> Registration { try #require(try fixture.database.registration(token(seed))) }
        #expect(try row(4).nextPushAt == t0 + 300_000 && row(4).lastError == "BadPriority" && row(4).consecutiveFailures == 0)
        #expect(try row(1).nextPushAt == t0 + 1100 && row(1).lastError == nil)
        #expect(try row(2).nextPushAt == t0 + 200, "the new registration stays due")
        #expect(try row(3).nextPushAt == t0 + 60_100 && row(3).lastError == "ServiceUnavailable")
        #expect(try row(7).nextPushAt == t0 && row(7).lastError == nil, "sandbox is not production's")
    }

    @Test(arguments: TestEngine.real, readingAhead)
    func aRowMovedAheadOfTheCursorIsNotReturnedAgain(engine: TestEngine, readingAhead: Bool) throws {
        let fixture = try SweepFixture(engine, label: "due-cursor")
        try fixture.register(1...6, at: t0)
        let store = try fixture.database.sweep()
        for seed in 1...6 { try fixture.setNextPush(seed, t0 - Int64(10 - seed) * 1000) }
        let cursor = makeCursor(store, cutoff: t0 + 30_000, pageSize: 2, readingAhead: readingAhead)
        let first = try #require(try cursor.next())
        #expect(first.token.hex == sampleToken(1))
        // Pushed with a 1 s interval: due again within the slack, after the rows still to come.
        try fixture.setNextPush(1, t0 + 1000)
        var rest: [String] = []
        while let row = try cursor.next() { rest.append(row.token.hex) }
        #expect(rest == (2...6).map { sampleToken($0) })
    }

    @Test(arguments: TestEngine.every, readingAhead)
    func aRegistrationMadeAheadOfTheCursorIsReturned(engine: TestEngine, readingAhead: Bool) throws {
        let fixture = try SweepFixture(engine, label: "due-cursor")
        try fixture.register(1...4, at: t0 - 10_000)
        let store = try fixture.database.sweep()
        let cursor = makeCursor(store, cutoff: t0 + 30_000, pageSize: 2, readingAhead: readingAhead)
        _ = try cursor.next()
        try fixture.register([9], at: t0)
        var count = 1
        while try cursor.next() != nil { count += 1 }
        #expect(count == 5)
    }

    /// On PostgreSQL a page read ahead is claimed as it is read: one the sweep never took (it
    /// stopped first) goes back with the other claims it never wrote, any host's again.
    @Test func aPageReadAheadAndNeverTakenIsGivenBackWithTheOtherClaims() throws {
        let fixture = try SweepFixture(.postgres, label: "due-cursor")
        try fixture.register(1...6, at: t0)
        let store = try fixture.database.sweep()
        let cursor = makeCursor(store, cutoff: t0 + 30_000, pageSize: 3, readingAhead: true)
        #expect(try cursor.next()?.token.hex == sampleToken(1))
        cursor.finish()
        let claimed = "SELECT count(*) FROM push_targets WHERE lease_until IS NOT NULL"
        #expect(try fixture.database.scalar(claimed) == 6, "the page taken and the page read ahead")
        try #require(store as? any SharedDatabase).releaseClaims()
        #expect(try fixture.database.scalar(claimed) == 0)
    }

    @Test(arguments: TestEngine.every)
    func onlyEnabledEnvironmentsAreReadAndCounted(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "due-cursor")
        try fixture.register(1...3, .production, at: t0)
        try fixture.register(11...14, .sandbox, at: t0)
        let store = try fixture.database.sweep()
        #expect(try store.dueCounts(atOrBefore: t0, environments: APNsEnvironment.allCases) == [.production: 3, .sandbox: 4])
        #expect(try store.dueCounts(atOrBefore: t0, environments: [.sandbox]) == [.sandbox: 4])
        #expect(try store.dueCounts(atOrBefore: t0 - 1, environments: APNsEnvironment.allCases).isEmpty)
        let cursor = makeCursor(store, cutoff: t0, environments: [.sandbox], pageSize: 3)
        var environments: [APNsEnvironment] = []
        while let row = try cursor.next() { environments.append(row.environment) }
        #expect(environments == Array(repeating: .sandbox, count: 4))
    }

    @Test(arguments: TestEngine.every)
    func aSweepReadingInSmallStepsPushesEachRegistrationOnceAndAnnouncesHowMany(engine: TestEngine) throws {
        let fixture = try SweepFixture(engine, label: "due-cursor")
        try fixture.register(1...25, at: t0)
        try fixture.register(101...105, .sandbox, at: t0)
        var configuration = fixture.configuration
        configuration.intervalPolicy.typeSeconds[.charging] = 1  // a written row would be due again within the slack
        let sender = ScriptedSender()
        sender.batch = 3
        let summary = try fixture.sweep(at: t0 + 1000, sender, configuration: configuration, duePageSize: 4, lookahead: 5)
        #expect(summary.sent == 30 && summary.skipped == 0 && summary.deferred == 0)
        #expect(Set(sender.sent.map(\.push.token.hex)).count == 30 && sender.sent.count == 30)
        #expect(sender.expected == [.production: 25, .sandbox: 5])
    }
}
