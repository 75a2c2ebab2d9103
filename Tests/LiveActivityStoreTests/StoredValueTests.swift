import Foundation
import LiveActivityDomain
import LiveActivityStore
import TestSupport
import Testing

/// Values read back from the database are input too (SPEC 7, issue 26 point 6): a stored
/// environment or activity type this build does not know, or a number out of any range it writes
/// (the web user can write a SQLite file; a hand edit can write anything), is an error naming it,
/// never a guess and never a crash: read as `.production`, a sandbox token would go to the wrong
/// host and be deleted on the BadDeviceToken answer; an interval of 2^62 s overflowed the sweep.
/// Each test takes its engine as its argument: a real one, whose rows SQL can plant a value in.
@Suite struct StoredValueTests {
    let token = PushToken(trusted: sampleToken(1))

    /// A database of the test's own on `engine`, holding `token`'s registration.
    func registered(on engine: TestEngine) throws -> TestDatabase {
        let database = try TestDatabase(engine, label: "stored")
        try database.register(token, type: .charging, environment: .sandbox, now: 1000, expiresAt: 9000, cap: 10)
        return database
    }

    func due(in database: TestDatabase) throws -> [DueRead] {
        try database.reading {
            try $0.claimDue(atOrBefore: 5000, environments: APNsEnvironment.allCases, after: nil, limit: 10)
        }
    }

    /// What `column` = `value` does: the registration read refuses it naming the column, and the
    /// sweep's due page holds the row as one it cannot use (skipped, with its place kept).
    func expectRefused(
        _ column: String, _ value: String, named: String? = nil, on engine: TestEngine,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let database = try registered(on: engine)
        try database.execute("UPDATE push_targets SET \(column) = \(value)")
        let refusal = StoredValueError(column: "push_targets.\(column)", value: named)
        #expect(throws: refusal, sourceLocation: sourceLocation) { try database.registration(token) }
        let page = try due(in: database)
        #expect(page.count == 1 && page.first?.position.key == .wake(token), sourceLocation: sourceLocation)
        guard case .failure(let error) = page.first?.target else {
            Issue.record("a row holding \(column) = \(value) was read as usable", sourceLocation: sourceLocation)
            return
        }
        #expect(error == refusal, sourceLocation: sourceLocation)
    }

    @Test(arguments: TestEngine.real)
    func anUnknownEnvironmentIsAnErrorWhereverARowIsRead(engine: TestEngine) throws {
        try expectRefused("environment", "'mars'", named: "mars", on: engine)
        #expect(
            StoredValueError(column: "push_targets.environment", value: "mars").description
                == "the database holds push_targets.environment \"mars\", which this build does not know")
    }

    @Test(arguments: TestEngine.real)
    func anUnknownActivityTypeIsAnError(engine: TestEngine) throws {
        try expectRefused("activity_type", "'party'", named: "party", on: engine)
    }

    @Test(arguments: ["4611686018427387904", "0", "-5", "86401"], TestEngine.real)
    func anIntervalOutOfRangeIsAnError(value: String, engine: TestEngine) throws {
        try expectRefused("requested_interval", value, named: value, on: engine)
    }

    @Test(arguments: ["-1", "9223372036854775807"], TestEngine.real)
    func aFailureCountOutOfRangeIsAnError(value: String, engine: TestEngine) throws {
        try expectRefused("consecutive_failures", value, named: value, on: engine)
    }

    @Test(arguments: TestEngine.real)
    func aTimeOutOfRangeIsAnError(engine: TestEngine) throws {
        try expectRefused("registered_at", "-9223372036854775807", named: "-9223372036854775807", on: engine)
    }

    /// A target of a kind a newer build pushes (a third kind, SPEC 5.5): the sweep leaves it as
    /// it is, and a read of its registration says which value it cannot use.
    @Test(arguments: TestEngine.real)
    func aTargetOfAKindThisBuildDoesNotKnowIsLeftAsItIs(engine: TestEngine) throws {
        let database = try registered(on: engine)
        try database.execute(
            """
            INSERT INTO push_targets (registration_token, push_kind, push_token, activity_type, environment, registered_at,
                expires_at, next_push_at)
            VALUES ('\(token.hex)', 'controls', '\(testToken(9))', 'charging', 'sandbox', 1000, 9000, 1000)
            """)
        #expect(try due(in: database).map(\.position.key) == [.wake(token)], "the sweep reads the kinds it pushes")
        let counts = try database.reading {
            try $0.dueCounts(atOrBefore: 5000, environments: APNsEnvironment.allCases)
        }
        #expect(counts == [PushScope.sandbox: 1])
        #expect(throws: StoredValueError(column: "push_targets.push_kind", value: "controls")) {
            try database.registration(token)
        }
        #expect(try database.rows("SELECT push_kind FROM push_targets ORDER BY 1") == [["controls"], ["wake"]])
    }

    @Test(arguments: TestEngine.real)
    func knownValuesReadAsBefore(engine: TestEngine) throws {
        let database = try registered(on: engine)
        try database.execute("UPDATE push_targets SET activity_type = 'debug', requested_interval = 900")
        let row = try #require(try database.registration(token))
        #expect(row.environment == .sandbox && row.activityType == .debug && row.requestedInterval == 900)
        let page = try due(in: database)
        #expect(try page.map { try $0.target.get().environment } == [.sandbox])
    }
}
