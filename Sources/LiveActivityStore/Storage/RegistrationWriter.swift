import Foundation
import LiveActivityDomain
import Synchronization

/// The responder's one database connection, shared by its worker threads, with group commit:
/// a worker queues its write; the first to find the connection free commits every queued write in
/// one transaction, wakes the writers it answered and hands the connection to the first writer
/// queued meanwhile, which commits the next batch (`CommitTurn`).
///
/// Why: with a connection per worker every commit invalidated the other connections' page caches
/// (a dozen `pread`s per registration), and one transaction per write paid the WAL append, the
/// lock round trip and the index tail pages once per request. Each caller still returns only
/// after its own write is committed (or failed), so a 200 always means "on disk".
public final class RegistrationWriter: @unchecked Sendable {
    private let path: String
    private let options: DatabaseOptions
    private let turn = CommitTurn<Pending>()
    /// The connection, opened on first use; only the holder of the turn touches it.
    private var store: RegistrationStore?
    /// Files found deleted or replaced under the connection, for the caller to report.
    private let replaced = Mutex<[FileIdentity?]>([])
    /// Transactions begun, each of which may wait the whole busy timeout: what tests count.
    let transactionAttempts = Atomic<Int>(0)
    /// Writes waiting for the turn (tests wait on it).
    var queuedWrites: Int { turn.queuedCount }

    public init(path: String, options: DatabaseOptions = .init()) {
        self.path = path
        self.options = options
    }

    /// Commits `write` (alone or with others queued at the same time) and returns its outcome,
    /// or throws its own error: `StoreError`, `SQLiteError` or `SchemaTooNewError`. After a
    /// `DatabaseFault` that `needsReopen`, the next use opens the database afresh.
    public func perform(_ write: StoreWrite) throws -> StoreWrite.Outcome {
        let mine = Pending(write)
        if !turn.queue(mine) { mine.wake.wait() }
        // Woken with an answer: another thread committed our write. Without one: we hold the turn.
        if mine.answer == nil {
            let batch = turn.takeWrites()
            dropIfReplaced()
            commit(batch)
            let next = turn.handOver()
            next?.wake.signal()
            for pending in batch where pending !== mine { pending.wake.signal() }
        }
        guard let answer = mine.answer else { throw Unanswered() }
        return try answer.get()
    }

    /// Runs `body` on the connection while no write is being committed (health, metrics).
    public func read<T: Sendable>(_ body: (RegistrationStore) throws -> T) throws -> T {
        turn.waitAsReader()
        defer { turn.handOver()?.wake.signal() }
        dropIfReplaced()
        do {
            let opened = try store ?? RegistrationStore(path: path, options: options)
            store = opened
            return try body(opened)
        } catch {
            dropIfBroken(by: error)
            throw error
        }
    }

    /// The files dropped since the last call (deleted or replaced while open).
    public func takeReplacedFiles() -> [FileIdentity?] {
        replaced.withLock { files in
            defer { files.removeAll() }
            return files
        }
    }

    /// Closes a connection whose path no longer names its file: writes would land in an unlinked
    /// inode and be lost. Closing must not delete the new file's -wal and -shm (SQLite removes
    /// them by name), hence `keepWALFilesOnClose`. The next use opens the path afresh.
    private func dropIfReplaced() {
        guard let current = store, current.fileWasReplaced else { return }
        current.connection.keepWALFilesOnClose()
        store = nil
        replaced.withLock { $0.append(current.openedFile) }
    }

    /// Closes the connection after a fault that leaves it unusable (its file vanished or broke).
    private func dropIfBroken(by error: any Error) {
        if DatabaseFault(error)?.needsReopen == true { store = nil }
    }

    // MARK: - Committing a batch

    /// Answers every write of `batch` (the caller holds the turn).
    private func commit(_ batch: [Pending]) {
        let opened: RegistrationStore
        do {
            opened = try store ?? RegistrationStore(path: path, options: options)
            store = opened
        } catch {
            for pending in batch { pending.answer = .failure(error) }
            return
        }
        if batch.count > 1 {
            guard let failure = commitTogether(batch, opened) else { return }
            // A fault of the database itself (busy, full, read-only, I/O, corrupt) would fail each
            // write alone the same way, a busy one after another whole busy timeout each, with the
            // turn (health included) held all along: it is every write's answer at once.
            if let fault = DatabaseFault(failure), fault.isDatabaseWide {
                for pending in batch { pending.answer = .failure(failure) }
                dropIfBroken(by: failure)
                return
            }
        }
        // One transaction each: alone, or after a batch failed on one of its rows (a constraint),
        // so that one write's failure is that write's answer and no other's.
        for pending in batch {
            do {
                transactionAttempts.add(1, ordering: .relaxed)
                pending.answer = .success(try opened.connection.transaction { try pending.write.apply(to: opened) })
            } catch {
                pending.answer = .failure(error)
                dropIfBroken(by: error)
            }
        }
    }

    /// All of `batch` in one transaction; the error (and nothing changed) when the transaction
    /// failed, nil when every write is answered. A write refused for capacity changed nothing, so
    /// the others go on; the count it checked includes the writes before it, so the cap stays exact.
    private func commitTogether(_ batch: [Pending], _ store: RegistrationStore) -> (any Error)? {
        var answers: [Result<StoreWrite.Outcome, any Error>] = []
        answers.reserveCapacity(batch.count)
        do {
            transactionAttempts.add(1, ordering: .relaxed)
            try store.connection.transaction {
                for pending in batch {
                    do {
                        answers.append(.success(try pending.write.apply(to: store)))
                    } catch let refused as StoreError {
                        answers.append(.failure(refused))
                    }
                }
            }
        } catch {
            return error
        }
        for (pending, answer) in zip(batch, answers) { pending.answer = answer }
        return nil
    }

    /// A queued write and, once committed, its answer. The committing thread sets `answer` before
    /// it signals `wake`, and the asker reads it only after: the semaphore orders the two.
    private final class Pending: TurnWaiting, @unchecked Sendable {
        let write: StoreWrite
        var answer: Result<StoreWrite.Outcome, any Error>?
        let wake = DispatchSemaphore(value: 0)
        init(_ write: StoreWrite) { self.write = write }
    }

    /// A write the committing thread left unanswered: a defect, never expected.
    private struct Unanswered: Error, CustomStringConvertible {
        var description: String { "write was not answered" }
    }
}
