import Foundation
import Synchronization
import TestSupport
import Testing

@testable import LiveActivityDomain
@testable import LiveActivityStore

/// The responder's shared writer under real threads: each write gets its own answer exactly once,
/// in the order its thread wrote, while the turn is handed from thread to thread; a write that
/// fails on its own row fails alone, while a fault of the database answers a whole batch at once;
/// readers have a connection of their own and never wait for a commit. Each test takes its engine
/// as its argument.
@Suite struct RegistrationWriterTests {
    let threads = 16

    /// A real failure of the database for chosen tokens: a trigger aborts the insert of every
    /// sample token ending in "dead", with the message "poisoned token" (SQL: the real engines only).
    private func poisonTokensEndingInDead(in database: TestDatabase) throws {
        try database.reading { _ in }  // migrated
        try database.refuseInserts(endingIn: "dead", message: "poisoned token")
    }

    private func register(_ seed: Int, cap: Int = 1_000_000) throws -> StoreWrite {
        .register(
            NewRegistration(
                token: try PushToken(validating: sampleToken(seed)), activityType: .charging, environment: .production,
                registeredAt: 1, expiresAt: 2),
            caps: RegistrationCaps(total: cap, unproven: 1_000_000))
    }

    @Test(arguments: TestEngine.every)
    func everyWriteGetsItsOwnAnswerInTheOrderItsThreadWrote(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "writer")
        let writer = RegistrationWriter(engine: database.engine)
        let wrong = Mutex<[String]>([])
        let cycle: [(String, StoreWrite.Outcome)] = [
            ("register", .registered(.created)), ("register", .registered(.refreshed)),
            ("unregister", .unregistered(found: true)), ("unregister", .unregistered(found: false)),
        ]
        onThreads(threads) { thread in
            for round in 0..<40 {
                // Half the threads keep one token, half take a new one each round.
                let seed = thread.isMultiple(of: 2) ? thread : 1000 * (thread + 1) + round
                for (step, (kind, expected)) in cycle.enumerated() {
                    do {
                        let token = try PushToken(validating: sampleToken(seed))
                        let write: StoreWrite = kind == "register" ? try register(seed) : .unregister(token)
                        let answer = try writer.perform(write)
                        if answer != expected {
                            wrong.withLock { $0.append("thread \(thread) round \(round) step \(step): \(answer)") }
                        }
                    } catch {
                        wrong.withLock { $0.append("thread \(thread) round \(round) step \(step): \(error)") }
                    }
                }
            }
        }
        #expect(wrong.withLock { $0 } == [])
        #expect(try writer.read { try $0.registrationCount() } == 0)
    }

    @Test(arguments: TestEngine.every)
    func theCapHoldsExactlyWhenManyThreadsRegisterAtOnce(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "writer")
        let writer = RegistrationWriter(engine: database.engine)
        let created = Atomic<Int>(0)
        let refused = Atomic<Int>(0)
        let other = Mutex<[String]>([])
        onThreads(threads) { thread in
            for index in 0..<10 {
                do {
                    let write = try register(thread * 100 + index, cap: 50)
                    if try writer.perform(write) == .registered(.created) { created.add(1, ordering: .relaxed) }
                } catch StoreError.capacityReached(limit: 50) {
                    refused.add(1, ordering: .relaxed)
                } catch {
                    other.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(created.load(ordering: .relaxed) == 50)
        #expect(refused.load(ordering: .relaxed) == threads * 10 - 50)
        #expect(other.withLock { $0 } == [])
        #expect(try writer.read { try $0.registrationCount() } == 50)
    }

    @Test(arguments: TestEngine.real)
    func aWriteThatFailsFailsAloneAndTheOthersInItsBatchAreCommitted(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "writer")
        try poisonTokensEndingInDead(in: database)
        let writer = RegistrationWriter(engine: database.engine)
        let wrong = Mutex<[String]>([])
        let failed = Atomic<Int>(0)
        onThreads(threads) { thread in
            for index in 0..<30 {
                let poisoned = index % 10 == 3
                let seed = poisoned ? (thread * 100 + index) * 0x1_0000 + 0xdead : thread * 100 + index
                do {
                    let answer = try writer.perform(try register(seed))
                    if poisoned || answer != .registered(.created) {
                        wrong.withLock { $0.append("seed \(seed): \(answer)") }
                    }
                } catch let fault as StoreFault where poisoned && fault.message.contains("poisoned token") {
                    failed.add(1, ordering: .relaxed)
                } catch {
                    wrong.withLock { $0.append("seed \(seed): \(error)") }
                }
            }
        }
        #expect(wrong.withLock { $0 } == [])
        #expect(failed.load(ordering: .relaxed) == threads * 3)
        #expect(try writer.read { try $0.registrationCount() } == threads * 27)
    }

    @Test(arguments: TestEngine.real)
    func aBatchFacingABusyDatabaseIsAnsweredBusyAtOnceNotRetriedOneByOne(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "writer")
        let writer = RegistrationWriter(engine: database.impatientEngine)
        // Open before the lock is taken.
        #expect(try writer.perform(.unregister(PushToken(trusted: sampleToken(999)))) == .unregistered(found: false))
        // Another process's shell in a transaction: the write lock is held throughout.
        let shell = try database.holdWriteLock()
        defer { try? shell.release() }

        let writes = 12
        let answers = Mutex<[String]>([])
        let started = writer.transactionAttempts.load(ordering: .relaxed)
        holdTheTurnUntilQueued(writes, writer)
        onThreads(writes) { index in
            do {
                _ = try writer.perform(try register(index))
                answers.withLock { $0.append("committed") }
            } catch {
                answers.withLock { $0.append(StoreFault.of(error)?.cause ?? "\(error)") }
            }
        }
        #expect(answers.withLock { $0 } == Array(repeating: "busy", count: writes))
        // Before: one failed batch and then a busy wait for each write alone (writes + 1).
        #expect(writer.transactionAttempts.load(ordering: .relaxed) - started == 1, "one busy wait for the whole batch")
    }

    @Test(arguments: TestEngine.real)
    func aRowLevelFailureStillFallsBackToOneWriteAtATime(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "writer")
        try poisonTokensEndingInDead(in: database)
        let writer = RegistrationWriter(engine: database.engine)
        #expect(try writer.read { try $0.registrationCount() } == 0)
        let writes = 6
        let answers = Mutex<[Int: String]>([:])
        let started = writer.transactionAttempts.load(ordering: .relaxed)
        holdTheTurnUntilQueued(writes, writer)
        onThreads(writes) { index in
            let seed = index == 0 ? 0x1_0000 + 0xdead : index
            do {
                _ = try writer.perform(try register(seed))
                answers.withLock { $0[index] = "committed" }
            } catch {
                answers.withLock { $0[index] = "failed" }
            }
        }
        #expect(
            answers.withLock { $0 } == [
                0: "failed", 1: "committed", 2: "committed", 3: "committed", 4: "committed", 5: "committed",
            ])
        #expect(writer.transactionAttempts.load(ordering: .relaxed) - started == 1 + writes, "the batch, then each alone")
        #expect(try writer.read { try $0.registrationCount() } == writes - 1)
    }

    /// Issue 26 point 5: a reader (health, metrics, a status page taking its time) has its own
    /// connection; writes are committed and answered while it reads. With the turn shared, the
    /// writes below waited for the reader, which waited for them: the bounded wait ran out.
    @Test(arguments: TestEngine.every)
    func writesAreCommittedWhileAReaderReads(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "writer")
        let writer = RegistrationWriter(engine: database.engine)
        let committed = Atomic<Int>(0)
        try writer.read { _ in
            let ended = TestThreads.run(8, timeout: .seconds(60)) { index in
                let answer = try? writer.perform(try register(index + 1))
                if answer == .registered(.created) { committed.add(1, ordering: .relaxed) }
            }
            #expect(ended, "a write waited for the reader")
        }
        #expect(committed.load(ordering: .relaxed) == 8)
        #expect(try writer.read { try $0.registrationCount() } == 8)
    }

    @Test(arguments: TestEngine.every)
    func readersSeeOnlyCommittedWritesAndNeverHoldWritesBack(engine: TestEngine) throws {
        let database = try TestDatabase(engine, label: "writer")
        let writer = RegistrationWriter(engine: database.engine)
        let wrong = Mutex<[String]>([])
        let writers = threads - 2
        let perWriter = 60
        onThreads(threads) { thread in
            do {
                if thread < writers {
                    for index in 0..<perWriter { _ = try writer.perform(try register(thread * 1000 + index)) }
                } else {
                    // Counts only grow (nothing is removed) and never exceed what was written.
                    var last = 0
                    for _ in 0..<200 {
                        let count = try writer.read { try $0.registrationCount() }
                        if count < last || count > writers * perWriter {
                            wrong.withLock { $0.append("count \(count) after \(last)") }
                        }
                        last = count
                    }
                }
            } catch {
                wrong.withLock { $0.append("\(error)") }
            }
        }
        #expect(wrong.withLock { $0 } == [])
        #expect(try writer.read { try $0.registrationCount() } == writers * perWriter)
    }
}

/// Holds the writer's turn on a thread of its own until `count` writes are queued (10 s at most),
/// so that they form one batch when it is handed over.
private func holdTheTurnUntilQueued(_ count: Int, _ writer: RegistrationWriter) {
    let holding = TestSignal()
    TestThreads().start {
        writer.holdingTurn {
            holding.signal()
            for _ in 0..<10_000 where writer.queuedWrites < count { usleep(1000) }
        }
    }
    #expect(holding.wait(timeout: .seconds(60)), "the turn was never held")
}

/// Runs `body(index)` on `count` threads of their own (not a pool that a 2-core machine would
/// size at two), and returns when every one has finished. A thread still waiting after a minute
/// is a lost answer or a turn never handed over: the test fails instead of hanging the run.
private func onThreads(
    _ count: Int, sourceLocation: SourceLocation = #_sourceLocation, _ body: @escaping @Sendable (Int) -> Void
) {
    if !TestThreads.run(count, timeout: .seconds(60), body) {
        Issue.record("a writer thread never got its answer or the turn", sourceLocation: sourceLocation)
    }
}
