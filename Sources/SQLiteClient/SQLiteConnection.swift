import CSQLite

#if canImport(Glibc)
    import Glibc
#endif

/// One connection to a SQLite database file, used from one thread at a time.
///
/// Opening sets the pragmas SPEC section 4 requires (WAL, busy timeout, synchronous) once.
/// `package`, like the statements and their errors: the stores' tests and the stand-in's own record
/// use it, and no SQLite type is part of the store's public API.
package final class SQLiteConnection {
    package let handle: OpaquePointer
    package let path: String
    private var statements: [String: PreparedStatement] = [:]
    /// The same statements, by the address of the literal their text was written as.
    private var literalStatements: [UnsafeRawPointer: PreparedStatement] = [:]
    /// The same statements, by their family's literal and their shape in it (`statement(_:shape:text:)`).
    private var shapedStatements: [ShapeKey: PreparedStatement] = [:]

    private struct ShapeKey: Hashable {
        var family: UnsafeRawPointer
        var shape: Int
    }
    /// Where this connection's commits hand their checkpoints, if anywhere (`checkpoint(in:)`).
    private var checkpointer: WALCheckpointer?

    package init(path: String, options: SQLiteOptions = SQLiteOptions()) throws(SQLiteError) {
        if !options.readOnly { Self.createSharedFile(path) }
        var db: OpaquePointer?
        let flags =
            (options.readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE))
            | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(db)
            throw SQLiteError(code: rc, message: "\(message): \(path)")
        }
        self.handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, options.busyTimeoutMilliseconds)
        // The file is shared with another user (the web user can write it): what it holds is
        // input. Defensive mode refuses writes that corrupt it on purpose (writable_schema and
        // the like), and an untrusted schema may not run our SQL functions from its triggers,
        // views or defaults (https://sqlite.org/c3ref/c_dbconfig_defensive.html, trusted_schema).
        let defensive = liveactivity_sqlite_db_config_on(db, SQLITE_DBCONFIG_DEFENSIVE)
        // (A throw from here on closes the handle in deinit.)
        guard defensive == SQLITE_OK else {
            throw SQLiteError(code: defensive, message: "cannot turn on defensive mode: \(path)")
        }
        try execute("PRAGMA trusted_schema=OFF")
        if !options.readOnly {
            try execute("PRAGMA journal_mode=WAL")
        }
        let level =
            ["OFF", "NORMAL", "FULL", "EXTRA"].contains(options.synchronous.uppercased())
            ? options.synchronous.uppercased() : "NORMAL"
        try execute("PRAGMA synchronous=\(level)")
        if let pages = options.maxPageCount {
            try execute("PRAGMA max_page_count=\(pages)")
        }
        if let kibibytes = options.cacheKibibytes {
            try execute("PRAGMA cache_size=-\(kibibytes)")
        }
    }

    /// Makes a database file that does not exist yet 0660, whatever the umask. The responder (web
    /// user) and the sweep (key owner) are two users sharing the file through their group;
    /// SQLite would create it 0644 less the umask, which no umask can make group-writable. An
    /// empty file is an empty database, and SQLite gives `-wal` and `-shm` the database's mode.
    /// An existing file is left as it is; a failure here surfaces in the open that follows.
    static func createSharedFile(_ path: String) {
        guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else { return }
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o660)
        guard descriptor >= 0 else { return }
        fchmod(descriptor, 0o660)
        Glibc.close(descriptor)
    }

    /// Whether `close()` has run.
    package private(set) var isClosed = false

    /// Finalizes the statements and closes the file now, not whenever the last reference goes
    /// (the WAL's checkpoint and its `-wal`/`-shm` cleanup happen here). Later use throws
    /// SQLITE_MISUSE; closing twice does nothing.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        statements.removeAll()
        literalStatements.removeAll()
        shapedStatements.removeAll()
        // Its connection first, so that this one, closing last, checkpoints and removes the WAL.
        checkpointer?.stop()
        sqlite3_close_v2(handle)
    }

    /// Hands this connection's checkpoints to `checkpointer`'s thread instead of running them in
    /// the commit (SQLite's auto-checkpoint): a commit that leaves `threshold` pages not yet
    /// copied asks it for one; one that leaves `limit` pages in the WAL checkpoints itself.
    package func checkpoint(in checkpointer: WALCheckpointer) {
        self.checkpointer = checkpointer
        // Replaces SQLite's auto-checkpoint, itself a WAL hook (https://sqlite.org/c3ref/wal_hook.html).
        // The hook runs after the commit, its write lock released; the connection keeps
        // `checkpointer` alive as long as the hook can run.
        sqlite3_wal_hook(
            handle,
            { context, db, name, pages in
                let checkpointer = Unmanaged<WALCheckpointer>.fromOpaque(context!).takeUnretainedValue()
                switch checkpointer.afterCommit(leaving: pages) {
                case .nothing: break
                case .request: checkpointer.request()
                // As SQLite's own hook does: the commit stands whatever the checkpoint says.
                case .checkpoint: _ = sqlite3_wal_checkpoint(db, name)
                }
                return SQLITE_OK
            }, Unmanaged.passUnretained(checkpointer).toOpaque())
    }

    deinit { close() }

    /// Runs one or more statements without parameters (DDL, pragmas).
    package func execute(_ sql: String) throws(SQLiteError) {
        try checkOpen(sql)
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_free(message)
            throw SQLiteError(code: rc, message: text, sql: sql)
        }
    }

    /// The statement for `sql`, compiled on first use and cached for the life of the connection.
    package func statement(_ sql: String) throws(SQLiteError) -> PreparedStatement {
        try checkOpen(sql)
        if let cached = statements[sql] { return cached }
        let statement = try PreparedStatement(connection: self, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// The statement for the literal `sql`, found by the literal's address: looked up by its text,
    /// a statement's hundreds of characters were hashed on every run (4% of a registration's
    /// instructions). For a transaction's own statements, run with every request; the engines'
    /// statements a request runs are found by their shape (`statement(_:shape:text:)`), and
    /// `statement(_: String)` serves the rest.
    package func statement(_ sql: StaticString) throws(SQLiteError) -> PreparedStatement {
        guard sql.hasPointerRepresentation else { return try statement(sql.description) }
        try checkOpen(sql.description)
        let key = UnsafeRawPointer(sql.utf8Start)
        if let cached = literalStatements[key] { return cached }
        let statement = try statement(sql.description)
        literalStatements[key] = statement
        return statement
    }

    /// The statement of `shape` in the `family` of statements whose text varies with the parts a
    /// row needs (a literal naming the family, the shape a number the caller computes from those
    /// parts), its text built by `text` only the first time: for a statement run once per pushed
    /// row, found without building or hashing its text.
    package func statement(
        _ family: StaticString, shape: Int, text: () -> String
    ) throws(SQLiteError) -> PreparedStatement {
        precondition(family.hasPointerRepresentation, "a statement family is named by a string literal")
        try checkOpen(family.description)
        let key = ShapeKey(family: UnsafeRawPointer(family.utf8Start), shape: shape)
        if let cached = shapedStatements[key] { return cached }
        let statement = try statement(text())
        shapedStatements[key] = statement
        return statement
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    package var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction: committed when it returns, rolled back when
    /// it throws. IMMEDIATE takes the write lock up front, so a busy database fails at BEGIN
    /// (after the busy timeout) rather than midway.
    /// The three statements are prepared once: `sqlite3_exec` would parse them on every call.
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        try statement("BEGIN IMMEDIATE" as StaticString).run()
        do {
            let result = try body()
            try statement("COMMIT" as StaticString).run()
            return result
        } catch {
            // After some errors (SQLITE_FULL, IOERR) SQLite has already rolled back on its own.
            if sqlite3_get_autocommit(handle) == 0 { try? statement("ROLLBACK" as StaticString).run() }
            throw error
        }
    }

    /// Keeps SQLite from deleting the `-wal` and `-shm` files *by name* when this connection
    /// closes. Needed before dropping a connection whose database file was deleted or replaced:
    /// on close, the last connection checkpoints and unlinks `<path>-wal` and `<path>-shm`, which
    /// by then belong to the new database at the same path
    /// (https://sqlite.org/c3ref/c_fcntl_begin_atomic_write.html#sqlitefcntlpersistwal).
    package func keepWALFilesOnClose() {
        var persist: Int32 = 1
        _ = sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
    }

    /// `PRAGMA user_version`, the schema version.
    package var userVersion: Int64 {
        get throws(SQLiteError) { try statement("PRAGMA user_version").scalarInt() ?? 0 }
    }

    private func checkOpen(_ sql: @autoclosure () -> String) throws(SQLiteError) {
        if isClosed { throw SQLiteError(code: SQLITE_MISUSE, message: "the connection is closed: \(path)", sql: sql()) }
    }

    func error(_ rc: Int32, sql: String?) -> SQLiteError {
        SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
}
