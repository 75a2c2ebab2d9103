import CSQLite
import Glibc
import Synchronization
import SystemSupport

/// Checkpoints a database's write-ahead log on a thread and a connection of its own, for a
/// connection whose commits must not wait for a checkpoint (`SQLiteConnection.checkpoint(in:)`).
///
/// Why: SQLite's auto-checkpoint runs inside the commit that leaves 1,000 or more pages in the
/// WAL, with its two fsyncs (https://sqlite.org/pragma.html#pragma_synchronous: NORMAL syncs the
/// WAL before a checkpoint and the database after it). The responder's writer commits every
/// queued registration at once, so each such commit held them all; on a busy disk a
/// registration's p99 was 36-385 ms with it, 10-17 ms with no checkpoint at all, and 14-21 ms
/// with this thread in six of six quiet runs (scripts/bench's registration, 64 connections).
/// Here the commit only wakes this thread, which runs a PASSIVE checkpoint: it copies what is
/// committed while the writer goes on appending, and SQLite starts the WAL over at a later write
/// once all of it is copied (https://sqlite.org/wal.html#checkpointing).
///
/// Should the thread fall behind, or the writer never find all copied (it only does between two
/// transactions, which a constant stream of them may never leave), the WAL reaches `limit` pages
/// and the commit checkpoints itself, as SQLite's own auto-checkpoint would: the WAL stays
/// bounded, at a tenth of the stalls.
package final class WALCheckpointer: Sendable {
    /// Pages in the WAL not yet copied after a commit from which the thread is asked for a
    /// checkpoint (SQLite's auto-checkpoint default, which counts all the WAL's pages).
    package let threshold: Int32
    /// Pages in the WAL after a commit from which the commit checkpoints itself.
    package let limit: Int32
    private let path: String
    private let options: SQLiteOptions
    /// The WAL's pages copied by the last checkpoint: under a constant stream of commits the WAL
    /// is not started over, and asking for a checkpoint at every commit past `threshold` pages
    /// in all made one per commit, each with its fsyncs.
    private let copied = Atomic<Int32>(0)

    /// What callers and the thread share (and `WALCheckpointer+Testing` reads).
    struct Shared {
        var started = false
        var requested = false
        var stopping = false
        var running = false
        /// While set, the thread starts no checkpoint (`holdingCheckpoints`).
        var held = false
        var checkpointing = false
        /// Checkpoints that ran to their end (tests wait on it).
        var completed = 0
    }

    let shared = ConditionLock(Shared())

    package init(path: String, options: SQLiteOptions, threshold: Int32 = 1000, limit: Int32 = 10_000) {
        self.path = path
        self.options = options
        self.threshold = threshold
        self.limit = limit
    }

    /// What a commit that left `pages` in the WAL does: checkpoint itself (`limit`), ask the
    /// thread for a checkpoint (`threshold` pages not yet copied) or nothing.
    package func afterCommit(leaving pages: Int32) -> CommitAction {
        if pages >= limit { return .checkpoint }
        let done = copied.load(ordering: .relaxed)
        // Fewer pages than were copied: the WAL was started over since.
        let pending = pages >= done ? pages - done : pages
        return pending >= threshold ? .request : .nothing
    }

    package enum CommitAction: Equatable {
        case nothing, request, checkpoint
    }

    /// Asks for a checkpoint; the thread starts with the first request, so a connection that never
    /// commits (the responder's reading one) costs none.
    package func request() {
        let start = shared.withLock { shared -> Bool in
            guard !shared.stopping else { return false }
            shared.requested = true
            guard !shared.started else { return false }
            shared.started = true
            shared.running = true
            return true
        }
        if start && !SystemThread.start(name: "sqlite-checkpointer", { [self] in run() }) {
            // No thread: checkpoints stay with SQLite's own (on commit), as without this one.
            shared.withLock { shared in
                shared.started = false
                shared.running = false
            }
            shared.broadcast()  // a `stop` waiting for the thread to end
        }
        shared.signal()
    }

    /// Ends the thread, once its checkpoint in progress (if any) is over, and closes its connection.
    package func stop() {
        shared.withLock { $0.stopping = true }
        shared.broadcast()
        shared.wait(until: { !$0.running })
    }

    private func run() {
        var connection: SQLiteConnection?
        while true {
            let go = shared.withLock(
                when: { ($0.requested && !$0.held) || $0.stopping },
                do: { shared -> Bool in
                    guard !shared.stopping else { return false }
                    shared.requested = false
                    shared.checkpointing = true
                    return true
                })
            guard go else { break }
            let done = checkpoint(&connection)
            shared.withLock { shared in
                shared.checkpointing = false
                if done { shared.completed += 1 }
            }
            shared.broadcast()
        }
        connection?.close()
        shared.withLock { $0.running = false }
        shared.broadcast()
    }

    /// One PASSIVE checkpoint; `true` when it ran to its end. A failure leaves it to the next
    /// request (BUSY: another process's checkpoint runs; anything else: the connection is opened
    /// anew); the writer's own checkpoint at `limit` stays the bound either way.
    private func checkpoint(_ connection: inout SQLiteConnection?) -> Bool {
        do {
            if connection == nil {
                // Only a database that is there: one deleted meanwhile is the writer's to make anew.
                guard FileIdentity(path: path) != nil else { return false }
                let opened = try SQLiteConnection(path: path, options: options)
                // Its close must not delete the WAL files by name: the path may name another
                // database by then (`keepWALFilesOnClose`), and the writer's own close handles them.
                opened.keepWALFilesOnClose()
                connection = opened
            }
            var copiedPages: Int32 = 0
            let rc = sqlite3_wal_checkpoint_v2(connection!.handle, "main", SQLITE_CHECKPOINT_PASSIVE, nil, &copiedPages)
            if rc == SQLITE_OK {
                copied.store(max(copiedPages, 0), ordering: .relaxed)
                return true
            }
            if rc & 0xFF != SQLITE_BUSY {
                connection?.close()
                connection = nil
            }
        } catch {
            connection = nil
        }
        return false
    }
}
