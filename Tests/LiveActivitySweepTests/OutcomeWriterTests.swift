import Foundation
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore
@testable import LiveActivitySweep

/// The sweep's background writer: batches land in order, a failed batch stops the sweep, and a
/// writer that falls behind holds the sweep back rather than queueing without bound. Each test
/// takes its engine as its argument.
@Suite struct OutcomeWriterTests {
    /// A database of the test's own on `engine`, the sample tokens of `seeds` registered in it.
    func registered(_ seeds: ClosedRange<Int>, on engine: TestEngine) throws -> TestDatabase {
        let database = try TestDatabase(engine, label: "writer")
        for seed in seeds {
            try database.register(
                try PushToken(validating: sampleToken(seed)), type: .charging, environment: .production, now: 1, expiresAt: 2,
                cap: 100)
        }
        // Read by the sweep: on PostgreSQL taken under its lease.
        try database.claim(seeds.map { PushToken(trusted: sampleToken($0)) })
        return database
    }

    /// A writer on `database`; a `patient` one's connection waits out another connection's write
    /// lock for as long as a test holds it.
    func writer(on database: TestDatabase, patient: Bool = false) throws -> OutcomeWriter {
        let engine = patient ? database.patientEngine : database.engine
        return try OutcomeWriter(statements: TestDatabase.leasing(try engine.openOutcomeWriter()), policy: IntervalPolicy())
    }

    func delivered(_ seed: Int) -> OutcomeWrite {
        .delivered(.wake(PushToken(trusted: sampleToken(seed))), selectedRegisteredAt: 1, at: 10, nextPushAt: 20)
    }

    @Test(arguments: TestEngine.every)
    func everyQueuedBatchIsWrittenBeforeFinishReturns(engine: TestEngine) throws {
        let store = try registered(1...6, on: engine)
        let writer = try writer(on: store)
        try writer.submit(OutcomeBatch(writes: [delivered(1), delivered(2)]))
        try writer.submit(
            OutcomeBatch(writes: [delivered(3), .delete(.wake(PushToken(trusted: sampleToken(4))), registeredAtOrBefore: 1)]))
        #expect(try writer.finish() == [AppKind(.wake): 1])
        #expect(try store.registration(PushToken(trusted: sampleToken(3)))?.wakeupCount == 1)
        #expect(try store.registration(PushToken(trusted: sampleToken(4))) == nil)
        #expect(try store.registration(PushToken(trusted: sampleToken(5)))?.wakeupCount == 0)
    }

    @Test(arguments: TestEngine.real)
    func aFailedBatchIsReportedAndStopsFurtherWrites(engine: TestEngine) throws {
        let store = try registered(1...3, on: engine)
        try store.refuseUpdates(of: sampleToken(2))
        let writer = try writer(on: store)
        try writer.submit(OutcomeBatch(writes: [delivered(1)]))
        try writer.submit(OutcomeBatch(writes: [delivered(2)]))
        #expect(throws: StoreFault.self) { try writer.finish() }
        #expect(try store.registration(PushToken(trusted: sampleToken(1)))?.wakeupCount == 1, "the batch before stays")
        #expect(try store.registration(PushToken(trusted: sampleToken(2)))?.wakeupCount == 0, "the failed batch rolled back")
        #expect(throws: StoreFault.self) { try writer.submit(OutcomeBatch(writes: [delivered(3)])) }
    }

    /// Submits batches 1...count (one delivered row each) on a thread of its own; `submitted`
    /// counts those `submit` returned from, `failed` says whether one threw.
    func submitting(_ count: Int, to writer: OutcomeWriter)
        -> (submitted: LockedBox<Int>, failed: LockedBox<Bool>, done: TestSignal)
    {
        let submitted = LockedBox(0)
        let failed = LockedBox(false)
        let done = TestSignal()
        let batches = (1...count).map { OutcomeBatch(writes: [delivered($0)]) }
        TestThreads().start {
            do {
                for batch in batches {
                    try writer.submit(batch)
                    submitted.update { $0 += 1 }
                }
            } catch {
                failed.set(true)
            }
            done.signal()
        }
        return (submitted, failed, done)
    }

    @Test(arguments: TestEngine.real)
    func aWriterThatFallsBehindHoldsSubmitBack(engine: TestEngine) throws {
        let store = try registered(1...6, on: engine)
        // Another connection holds the write lock: the writer waits on its first batch.
        let lock = try store.holdWriteLock()
        let writer = try writer(on: store, patient: true)
        let (submitted, failed, done) = submitting(6, to: writer)
        // One batch at the writer, `maximumQueued` waiting; the next submit waits for room.
        let held = OutcomeWriter.maximumQueued + 1
        #expect(waitUntil { submitted.get() == held })
        Thread.sleep(forTimeInterval: 0.3)  // room for a submit that should not return to do so
        #expect(submitted.get() == held, "submit returned with \(OutcomeWriter.maximumQueued) batches waiting")
        try lock.release()
        #expect(done.wait(timeout: .seconds(60)))
        #expect(submitted.get() == 6 && !failed.get())
        #expect(try writer.finish() == [:], "nothing deleted")
        for seed in 1...6 { #expect(try store.registration(PushToken(trusted: sampleToken(seed)))?.wakeupCount == 1) }
    }

    @Test(arguments: TestEngine.real)
    func aSubmitWaitingForRoomThrowsWhenTheWriterFails(engine: TestEngine) throws {
        let store = try registered(1...6, on: engine)
        try store.refuseUpdates(of: sampleToken(1))
        let lock = try store.holdWriteLock()
        let writer = try writer(on: store, patient: true)
        let (submitted, failed, done) = submitting(6, to: writer)
        #expect(waitUntil { submitted.get() == OutcomeWriter.maximumQueued + 1 })
        try lock.release()
        #expect(done.wait(timeout: .seconds(60)), "the waiting submit must not hang")
        #expect(failed.get())
        #expect(submitted.get() < 6)
        #expect(throws: StoreFault.self) { try writer.finish() }
        #expect(try store.registration(PushToken(trusted: sampleToken(6)))?.wakeupCount == 0)
    }
}
