import Synchronization

/// The responder's one database connection, shared by its worker threads, with group commit:
/// a worker queues its write and takes the connection; if another worker committed that write
/// meanwhile it just returns the answer, else it commits every queued write in one transaction.
///
/// Why: with a connection per worker every commit invalidated the other connections' page caches
/// (a dozen `pread`s per registration), and one transaction per write paid the WAL append, the
/// lock round trip and the index tail pages once per request. Each caller still returns only
/// after its own write is committed (or failed), so a 200 always means "on disk".
public final class RegistrationWriter: Sendable {
    private let path: String
    private let options: SQLiteConnection.Options
    /// The connection, opened on first use; holding this lock is holding the right to commit.
    private let connection = Mutex<RegistrationStore?>(nil)
    private let queue = Mutex<[Pending]>([])
    /// Files found deleted or replaced under the connection, for the caller to report.
    private let replaced = Mutex<[FileIdentity?]>([])

    public init(path: String, options: SQLiteConnection.Options = .init()) {
        self.path = path
        self.options = options
    }

    /// Commits `write` (alone or with others queued at the same time) and returns its outcome,
    /// or throws its own error: `StoreError`, `SQLiteError` or `SchemaTooNewError`. After a
    /// `DatabaseFault` that `needsReopen`, the next use opens the database afresh.
    public func perform(_ write: StoreWrite) throws -> StoreWrite.Outcome {
        let mine = Pending(write)
        queue.withLock { $0.append(mine) }
        let answer = connection.withLock { store in
            // A leader that took the queue after our append has answered us before unlocking.
            if let done = mine.answer.withLock({ $0 }) { return done }
            let batch = queue.withLock { queued in
                defer { queued.removeAll(keepingCapacity: true) }
                return queued
            }
            dropIfReplaced(&store)
            Self.commit(batch, store: &store, path: path, options: options)
            return mine.answer.withLock { $0 } ?? .failure(Unanswered())
        }
        return try answer.get()
    }

    /// Runs `body` on the connection while no write is being committed (health, metrics).
    public func read<T: Sendable>(_ body: (RegistrationStore) throws -> T) throws -> T {
        try connection.withLock { store in
            dropIfReplaced(&store)
            do {
                let opened = try store ?? RegistrationStore(path: path, options: options)
                store = opened
                return try body(opened)
            } catch {
                Self.dropIfBroken(&store, by: error)
                throw error
            }
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
    private func dropIfReplaced(_ store: inout RegistrationStore?) {
        guard let current = store, current.fileWasReplaced else { return }
        current.connection.keepWALFilesOnClose()
        store = nil
        replaced.withLock { $0.append(current.openedFile) }
    }

    /// Closes the connection after a fault that leaves it unusable (its file vanished or broke).
    private static func dropIfBroken(_ store: inout RegistrationStore?, by error: any Error) {
        if DatabaseFault(error)?.needsReopen == true { store = nil }
    }

    // MARK: - Committing a batch

    private static func commit(
        _ batch: [Pending], store: inout RegistrationStore?, path: String, options: SQLiteConnection.Options
    ) {
        let opened: RegistrationStore
        do {
            opened = try store ?? RegistrationStore(path: path, options: options)
            store = opened
        } catch {
            for pending in batch { pending.answer.withLock { $0 = .failure(error) } }
            return
        }
        if batch.count > 1, commitTogether(batch, opened) { return }
        // One transaction each: alone, or after a batch failed, so that one write's fault (a full
        // disk, a busy database) is that write's answer and no other's.
        for pending in batch {
            let answer: Result<StoreWrite.Outcome, any Error>
            do {
                answer = .success(try opened.connection.transaction { try pending.write.apply(to: opened) })
            } catch {
                answer = .failure(error)
                dropIfBroken(&store, by: error)
            }
            pending.answer.withLock { $0 = answer }
        }
    }

    /// All of `batch` in one transaction; `false` (and nothing changed) when the transaction failed.
    /// A write refused for capacity changed nothing, so the others go on; the count it checked
    /// includes the writes before it, so the cap stays exact.
    private static func commitTogether(_ batch: [Pending], _ store: RegistrationStore) -> Bool {
        var answers: [Result<StoreWrite.Outcome, any Error>] = []
        answers.reserveCapacity(batch.count)
        do {
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
            return false
        }
        for (pending, answer) in zip(batch, answers) { pending.answer.withLock { $0 = answer } }
        return true
    }

    /// A queued write and, once committed, its answer (errors are `Sendable`, so the committing
    /// thread hands the asker its error as thrown).
    private final class Pending: Sendable {
        let write: StoreWrite
        let answer = Mutex<Result<StoreWrite.Outcome, any Error>?>(nil)
        init(_ write: StoreWrite) { self.write = write }
    }

    /// A write the committing thread left unanswered: a defect, never expected.
    private struct Unanswered: Error, CustomStringConvertible {
        var description: String { "write was not answered" }
    }
}
