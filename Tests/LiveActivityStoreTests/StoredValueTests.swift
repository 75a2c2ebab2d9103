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
@Suite struct StoredValueTests {
    let database: TestDatabase
    let token = PushToken(trusted: sampleToken(1))

    init() throws {
        database = try TestDatabase(label: "stored")
        try database.register(token, type: .charging, environment: .sandbox, now: 1000, expiresAt: 9000, cap: 10)
    }

    func due() throws -> [DueRead] {
        try database.reading {
            try $0.claimDue(
                atOrBefore: 5000, environments: APNsEnvironment.allCases, after: nil, limit: 10, lease: TestDatabase.lease)
        }
    }

    /// What `column` = `value` does: the registration read refuses it naming the column, and the
    /// sweep's due page holds the row as one it cannot use (skipped, with its place kept).
    func expectRefused(_ column: String, _ value: String, named: String? = nil, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        try database.execute("UPDATE registrations SET \(column) = \(value)")
        let refusal = StoredValueError(column: "registrations.\(column)", value: named)
        #expect(throws: refusal, sourceLocation: sourceLocation) { try database.registration(token) }
        let page = try due()
        #expect(page.count == 1 && page.first?.position.token == token, sourceLocation: sourceLocation)
        guard case .failure(let error) = page.first?.registration else {
            Issue.record("a row holding \(column) = \(value) was read as usable", sourceLocation: sourceLocation)
            return
        }
        #expect(error == refusal, sourceLocation: sourceLocation)
    }

    @Test func anUnknownEnvironmentIsAnErrorWhereverARowIsRead() throws {
        try expectRefused("environment", "'mars'", named: "mars")
        #expect(
            StoredValueError(column: "registrations.environment", value: "mars").description
                == "the database holds registrations.environment \"mars\", which this build does not know")
    }

    @Test func anUnknownActivityTypeIsAnError() throws {
        try expectRefused("activity_type", "'party'", named: "party")
    }

    @Test(arguments: ["4611686018427387904", "0", "-5", "86401"])
    func anIntervalOutOfRangeIsAnError(value: String) throws {
        try expectRefused("requested_interval", value, named: value)
    }

    @Test(arguments: ["-1", "9223372036854775807"])
    func aFailureCountOutOfRangeIsAnError(value: String) throws {
        try expectRefused("consecutive_failures", value, named: value)
    }

    @Test func aTimeOutOfRangeIsAnError() throws {
        try expectRefused("registered_at", "-9223372036854775807", named: "-9223372036854775807")
    }

    @Test func knownValuesReadAsBefore() throws {
        try database.execute("UPDATE registrations SET activity_type = 'debug', requested_interval = 900")
        let row = try #require(try database.registration(token))
        #expect(row.environment == .sandbox && row.activityType == .debug && row.requestedInterval == 900)
        let page = try due()
        #expect(try page.map { try $0.registration.get().environment } == [.sandbox])
    }
}
