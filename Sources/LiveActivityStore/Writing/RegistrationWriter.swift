import Glibc
import LiveActivityDomain
import Synchronization
import SystemSupport

/// The responder's database connections, shared by its worker threads: one that writes, with
/// group commit, and one that reads the figures.
///
/// Group commit: a worker queues its write; the first to find the writing connection free
/// commits every queued write in one transaction, wakes the writers it answered and hands the
/// connection to the first writer queued meanwhile, which commits the next batch (`CommitTurn`).
/// Why: with a connection per worker every commit invalidated the other connections' page caches
/// (a dozen `pread`s per registration on SQLite), and one transaction per write paid the commit
/// once per request (a WAL append, or a round trip to a server). Each caller still returns only
/// after its own write is committed (or failed), so a 200 always means committed.
///
/// Reads (health, metrics, the status page) take a connection of their own, one reader at a
/// time, and never the writers' turn: a flood of status requests costs workers, not commits.
///
/// Either connection is opened on first use and opened anew when it goes stale (its file was
/// replaced, the server went away) or fails in a way that needs it; after an open fails, the next
/// second's requests fail at once with the same fault rather than each waiting out a connect.
///
/// Unchecked `Sendable`: its connections wrap C handles (`sqlite3 *`, `PGconn *`), which are not;
/// the writing one is touched only by the holder of the turn, the reading one only under its lock.
public final class RegistrationWriter: @unchecked Sendable {
    private let engine: any StoreEngine
    /// The writers' turn (`RegistrationWriter+Testing` holds it too).
    let turn = CommitTurn<Pending>()
    /// The writing connection; only the holder of the turn touches it.
    private var connection: (any RegistrationStatements)?
    private var writerOpening = FailedOpen()
    /// The reading connection and its failed open.
    private let reading = LockedValue(ReadingSide())
    /// Why connections were dropped as stale, for the caller to report.
    private let stale = LockedValue<[Staleness]>([])
    /// The database's clock, as last read, on the monotonic clock (nil: the host's clock is the
    /// database's, or none was read yet). Read at each open of the writing connection and again
    /// every `clockReadInterval`.
    private let databaseClock = LockedValue<DatabaseClockReading?>(nil)
    private let monotonic = MonotonicClock()
    /// How often the database's clock is read again, for the drift of the host's monotonic clock.
    static let clockReadInterval: Int64 = 300_000
    /// Transactions begun, each of which may wait the whole busy timeout: what tests count.
    let transactionAttempts = Atomic<Int>(0)

    public init(engine: any StoreEngine) {
        self.engine = engine
    }

    /// Commits `write` (alone or with others queued at the same time) and returns its outcome,
    /// or throws its own error: a `StoreError` refusal, a `StoreFault`, a `StoredValueError`.
    public func perform(_ write: StoreWrite) throws -> StoreWrite.Outcome {
        let mine = Pending(write)
        if !turn.queue(mine) { mine.waitForWake() }
        // Woken with an answer: another thread committed our write. Without one: we hold the turn.
        if mine.answer == nil {
            let batch = turn.takeWrites()
            commit(batch)
            let next = turn.handOver()
            next?.wake()
            for pending in batch where pending !== mine { pending.wake() }
        }
        guard let answer = mine.answer else { throw StoreWrite.Unanswered() }
        return try answer.get()
    }

    /// Runs `body` on the reading connection, one reader at a time, never waiting for a commit.
    public func read<T>(_ body: (any FigureQueries) throws -> T) throws -> T {
        try reading.withLock { side in
            dropIfStale(&side.connection)
            do {
                let opened = try open(&side.connection, &side.opening)
                return try body(opened)
            } catch {
                dropIfBroken(&side.connection, by: error)
                throw error
            }
        }
    }

    /// `local` moved to the database's clock (SPEC 4: registration and ack times go by it). The
    /// database's time is its last reading plus the monotonic time since, so a step of this
    /// host's wall clock (NTP, an operator's `date`) moves no registration or ack time.
    public func clock(_ local: Clock) -> Clock {
        guard let reading = databaseClock.withLock({ $0 }) else { return local }
        let databaseNow = reading.databaseMilliseconds.addingSaturated(monotonic.now() - reading.monotonicMilliseconds)
        return Clock(
            offsetMilliseconds: local.offsetMilliseconds.addingSaturated(databaseNow.subtractingSaturated(Clock().now())))
    }

    /// Reads the database's clock on `connection` when it was never read or the last reading is
    /// `clockReadInterval` old. A failed reading keeps the last one; the commit that follows
    /// meets the same fault.
    private func readDatabaseClock(on connection: any RegistrationStatements, force: Bool) {
        let now = monotonic.now()
        if !force, let last = databaseClock.withLock({ $0 }), now - last.monotonicMilliseconds < Self.clockReadInterval {
            return
        }
        // One host's database (SQLite) has this host's clock: nothing to read.
        guard let shared = connection as? any SharedDatabase else { return }
        var readings: [ClockReading] = []
        for _ in 0..<ClockReading.readingsPerMeasure {
            let before = monotonic.now()
            guard let databaseNow = try? shared.databaseNow() else { break }
            readings.append(ClockReading(before: before, remote: databaseNow, after: monotonic.now()))
        }
        guard let closest = ClockReading.closest(readings) else { return }
        databaseClock.withLock {
            $0 = DatabaseClockReading(databaseMilliseconds: closest.remote, monotonicMilliseconds: closest.local)
        }
    }

    /// Why connections were dropped since the last call (deleted or replaced files, lost servers).
    public func takeStaleness() -> [Staleness] {
        stale.withLock { notes in
            defer { notes.removeAll() }
            return notes
        }
    }

    // MARK: - Connections

    /// An open that failed, and until when the same failure is every caller's answer.
    private struct FailedOpen {
        var error: (any Error)?
        var until: ContinuousClock.Instant?
    }

    /// The reading connection, and its failed open.
    private struct ReadingSide {
        var connection: (any RegistrationStatements)?
        var opening = FailedOpen()
    }

    /// How long an open that could not reach the server answers for itself: long enough that 64
    /// workers do not each wait out a connect to a server that is down, short enough that
    /// recovery is seen at once.
    static let failedOpenHold: Duration = .seconds(1)

    private func open(_ slot: inout (any RegistrationStatements)?, _ failed: inout FailedOpen) throws
        -> any RegistrationStatements
    {
        if let opened = slot { return opened }
        if let error = failed.error, let until = failed.until, ContinuousClock.now < until { throw error }
        do {
            let opened = try engine.openRegistrations()
            slot = opened
            readDatabaseClock(on: opened, force: true)
            failed = FailedOpen()
            return opened
        } catch {
            // Only a server that cannot be reached costs a wait worth sparing the next callers;
            // a file that cannot be opened fails at once and may be fixed at any moment.
            if StoreFault.of(error)?.kind == .unreachable {
                failed = FailedOpen(error: error, until: ContinuousClock.now + Self.failedOpenHold)
            }
            throw error
        }
    }

    /// Closes a connection that went stale (its file replaced, its server gone): writes would be
    /// lost or fail. The next use opens one afresh.
    private func dropIfStale(_ slot: inout (any RegistrationStatements)?) {
        guard let current = slot, let why = current.staleness else { return }
        current.close()
        slot = nil
        stale.withLock { $0.append(why) }
    }

    /// Closes the connection after a fault that leaves it unusable.
    private func dropIfBroken(_ slot: inout (any RegistrationStatements)?, by error: any Error) {
        guard StoreFault.of(error)?.needsReopen == true else { return }
        slot?.close()
        slot = nil
    }

    // MARK: - Committing a batch

    /// Answers every write of `batch` (the caller holds the turn).
    private func commit(_ batch: [Pending]) {
        dropIfStale(&connection)
        let opened: any RegistrationStatements
        do {
            opened = try open(&connection, &writerOpening)
        } catch {
            for pending in batch { pending.answer = .failure(error) }
            return
        }
        readDatabaseClock(on: opened, force: false)
        if batch.count > 1 {
            guard let failure = commitTogether(batch, opened) else { return }
            // A fault of the database itself (busy, full, read-only, unreachable, ...) would fail
            // each write alone the same way, a busy one after another whole wait each, with the
            // turn held all along: it is every write's answer at once.
            if let fault = StoreFault.of(failure), fault.isDatabaseWide {
                for pending in batch { pending.answer = .failure(failure) }
                dropIfBroken(&connection, by: failure)
                return
            }
        }
        // One transaction each: alone, or after a batch failed on one of its rows (a constraint),
        // so that one write's failure is that write's answer and no other's.
        var broken: (any Error)?
        for pending in batch {
            // Once the connection broke, it is every remaining write's answer too.
            if let broken {
                pending.answer = .failure(broken)
                continue
            }
            do {
                transactionAttempts.add(1, ordering: .relaxed)
                let answers = try opened.transaction { try StoreWrite.apply([pending.write], to: opened) }
                pending.answer = answers[0]
            } catch {
                pending.answer = .failure(error)
                dropIfBroken(&connection, by: error)
                if connection == nil { broken = error }
            }
        }
    }

    /// All of `batch` in one transaction; the error (and nothing changed) when the transaction
    /// failed, nil when every write is answered. A write refused for a cap changed nothing, so
    /// the others go on; the counts it checked include the writes before it, so the caps stay exact.
    private func commitTogether(_ batch: [Pending], _ statements: any RegistrationStatements) -> (any Error)? {
        let writes = batch.map(\.write)
        var answers = [Result<StoreWrite.Outcome, any Error>](repeating: .failure(StoreWrite.Unanswered()), count: batch.count)
        do {
            transactionAttempts.add(1, ordering: .relaxed)
            try statements.transaction {
                for run in StoreWrite.runs(writes) {
                    let answered = try StoreWrite.apply(run.map { writes[$0] }, to: statements)
                    for (index, answer) in zip(run, answered) { answers[index] = answer }
                }
            }
        } catch {
            return error
        }
        for (pending, answer) in zip(batch, answers) { pending.answer = answer }
        return nil
    }

    /// A queued write and, once committed, its answer. The committing thread sets `answer` before
    /// it wakes the asker, and both go through the write's own lock, which orders the two.
    final class Pending: TurnWaiting {
        private struct Progress {
            var answer: Result<StoreWrite.Outcome, any Error>?
            var woken = false
        }

        let write: StoreWrite
        private let progress = ConditionLock(Progress())

        init(_ write: StoreWrite) { self.write = write }

        var answer: Result<StoreWrite.Outcome, any Error>? {
            get { progress.withLock { $0.answer } }
            set { progress.withLock { $0.answer = newValue } }
        }

        func wake() {
            progress.withLock { $0.woken = true }
            progress.signal()
        }

        /// Sleeps until answered or handed the turn.
        func waitForWake() {
            progress.wait(until: \.woken)
        }
    }
}

/// The database's clock as read once: its time then, and the host's monotonic time then.
struct DatabaseClockReading: Sendable {
    var databaseMilliseconds: Int64
    var monotonicMilliseconds: Int64
}
