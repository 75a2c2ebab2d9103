import LiveActivityDomain
import LiveActivityStore
import SQLiteClient

/// One connection to the SQLite database, speaking the store's contract: the responder's
/// statements, a sweep's, and the figures' reads (`Statements/`). Used by one thread at a time;
/// it owns its `SQLiteConnection` and the statements prepared on it.
///
/// Every failure of SQLite leaves it as a `StoreFault` (`SQLiteFault`); errors of the caller's
/// own (a cap, a stored value this build cannot use) pass through a transaction unchanged.
final class SQLiteStoreConnection: StoreConnection {
    let connection: SQLiteConnection
    let path: String
    /// `LIVEACTIVITY_SQLITE_MAX_PAGES`, for the advice of a full database.
    let pageCeiling: Int?
    /// The file the connection opened (after migration, so it exists); nil if it could not be examined.
    let openedFile: FileIdentity?

    /// Opens (creating if needed) the database at `path`; with `migrating`, brings its schema up
    /// to date first. Concurrent openers are safe: each migration step re-checks the version
    /// inside its own write transaction. With `checkpointingAside`, its commits leave the WAL's
    /// checkpoints to a thread of their own (`WALCheckpointer`).
    init(path: String, options: SQLiteOptions, migrating: Bool, checkpointingAside: Bool = false) throws {
        self.path = path
        pageCeiling = options.maxPageCount
        do {
            connection = try SQLiteConnection(path: path, options: options)
            connection.registerAttemptRingFunction()
            if migrating { try Schema.migrate(connection) }
            if checkpointingAside { connection.checkpoint(in: WALCheckpointer(path: path, options: options)) }
        } catch let error as SQLiteError {
            throw StoreFault(sqlite: error, path: path, pageCeiling: options.maxPageCount)
        }
        openedFile = FileIdentity(path: path)
    }

    /// Runs `body`, turning SQLite's failures into `StoreFault`s; others pass unchanged.
    func storeFaults<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw StoreFault(sqlite: error, path: path, pageCeiling: pageCeiling)
        }
    }

    /// A `BEGIN IMMEDIATE` transaction (`SQLiteConnection.transaction`): a busy database fails at
    /// its start, not midway.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try storeFaults { try connection.transaction(body) }
    }

    /// The path no longer names the file this connection has open: deleted, or replaced (moved
    /// over, restored from a backup). Writing on would go to an unlinked inode and be lost. One
    /// `stat(2)`, cheap enough for every request.
    var staleness: Staleness? {
        guard let openedFile, FileIdentity(path: path) != openedFile else { return nil }
        return Staleness(
            key: "\(openedFile.device):\(openedFile.inode)",
            line: "database file \(path) was deleted or replaced while open; reopening it "
                + "(creating and migrating a new one if none is there)")
    }

    /// Closing must not delete the new file's -wal and -shm (SQLite removes them by name) when
    /// the path names another file now, hence `keepWALFilesOnClose`.
    func close() {
        if staleness != nil { connection.keepWALFilesOnClose() }
        connection.close()
    }

    /// The number of stored registrations: the sum of the trigger-kept group counters (at most
    /// one row per type and environment), so the caps and health never scan the table.
    func registrationCount() throws -> Int {
        try storeFaults { Int(try connection.statement(Schema.registrationCountSQL).scalarInt() ?? 0) }
    }
}
