import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore
@testable import LiveActivitySweep

/// The sweep's background writer: batches land in order, and a failed batch stops the sweep.
@Suite struct OutcomeWriterTests {
    let folder = TemporaryDirectory("writer")
    var path: String { folder.file("db.sqlite") }

    func registered(_ seeds: ClosedRange<Int>) throws -> RegistrationStore {
        let store = try RegistrationStore(path: path)
        for seed in seeds {
            try store.register(
                try PushToken(validating: sampleToken(seed)), type: .charging, environment: .production, now: 1,
                expiresAt: 2, cap: 100)
        }
        return store
    }

    func delivered(_ seed: Int) -> OutcomeWrite {
        .delivered(PushToken(trusted: sampleToken(seed)), selectedRegisteredAt: 1, at: 10, nextPushAt: 20)
    }

    @Test func everyQueuedBatchIsWrittenBeforeFinishReturns() throws {
        let store = try registered(1...6)
        let writer = try OutcomeWriter(path: path, options: .init())
        try writer.submit([delivered(1), delivered(2)])
        try writer.submit([delivered(3), .delete(PushToken(trusted: sampleToken(4)), registeredAtOrBefore: 1)])
        #expect(try writer.finish() == 1)
        #expect(try store.registration(PushToken(trusted: sampleToken(3)))?.wakeupCount == 1)
        #expect(try store.registration(PushToken(trusted: sampleToken(4))) == nil)
        #expect(try store.registration(PushToken(trusted: sampleToken(5)))?.wakeupCount == 0)
    }

    @Test func aFailedBatchIsReportedAndStopsFurtherWrites() throws {
        let store = try registered(1...3)
        try store.connection.execute(
            "CREATE TRIGGER refuse BEFORE UPDATE ON registrations WHEN new.push_token = '\(sampleToken(2))' BEGIN SELECT RAISE(ABORT, 'refused'); END"
        )
        let writer = try OutcomeWriter(path: path, options: .init())
        try writer.submit([delivered(1)])
        try writer.submit([delivered(2)])
        #expect(throws: SQLiteError.self) { try writer.finish() }
        #expect(try store.registration(PushToken(trusted: sampleToken(1)))?.wakeupCount == 1, "the batch before stays")
        #expect(try store.registration(PushToken(trusted: sampleToken(2)))?.wakeupCount == 0, "the failed batch rolled back")
        #expect(throws: SQLiteError.self) { try writer.submit([delivered(3)]) }
    }
}
