import CSQLite

/// A database failure as storage classifies it: what it is (named after SQLite's result codes,
/// https://sqlite.org/rescode.html), whether it passes on its own, whether the connection must be
/// reopened, and what the operator should do. Callers decide what it costs (the API: a status).
public struct DatabaseFault: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// `SQLITE_BUSY`, `SQLITE_LOCKED`: another connection held the lock past the busy timeout.
        case busy
        /// `SQLITE_READONLY`: the file, its folder or the filesystem refuses writes.
        case readOnly
        /// `SQLITE_CANTOPEN`: the file or its folder is missing or not ours to open.
        case cannotOpen
        /// `SQLITE_IOERR`: the disk or the filesystem failed a read or write.
        case ioError
        /// `SQLITE_FULL`: the filesystem or `max_page_count` has no room left.
        case full
        /// `SQLITE_CORRUPT`: the file is damaged.
        case corrupt
        /// `SQLITE_NOTADB`: the path names a file that is not an SQLite database.
        case notADatabase
        /// A newer build wrote the schema (`SchemaTooNewError`).
        case schemaTooNew
        /// Any other SQLite result code (primary).
        case other(code: Int32)
    }

    public let kind: Kind
    /// What the library said: for the operator's log, never for a client.
    public let message: String
    /// The message with its code.
    public let detail: String

    /// The fault `error` is; nil when it is no database failure.
    public init?(_ error: any Error) {
        switch error {
        case let error as SQLiteError:
            kind = Self.kind(primaryCode: error.primaryCode)
            message = error.message
            detail = "\(error.message) (code \(error.code))"
        case let error as SchemaTooNewError:
            kind = .schemaTooNew
            message = error.description
            detail = error.description
        default:
            return nil
        }
    }

    private static func kind(primaryCode: Int32) -> Kind {
        switch primaryCode {
        case SQLITE_BUSY, SQLITE_LOCKED: .busy
        case SQLITE_READONLY: .readOnly
        case SQLITE_CANTOPEN: .cannotOpen
        case SQLITE_IOERR: .ioError
        case SQLITE_FULL: .full
        case SQLITE_CORRUPT: .corrupt
        case SQLITE_NOTADB: .notADatabase
        default: .other(code: primaryCode)
        }
    }

    /// The fault goes away without a change to the database file (a lock is released, space or
    /// permission is given back), so a client may retry later.
    public var passes: Bool {
        switch kind {
        case .busy, .readOnly, .cannotOpen, .ioError, .full: true
        case .corrupt, .notADatabase, .schemaTooNew, .other: false
        }
    }

    /// The connection cannot be trusted any more: its file vanished, broke or was never opened,
    /// so the next use must open the path afresh.
    public var needsReopen: Bool {
        switch kind {
        case .readOnly, .cannotOpen, .ioError, .corrupt, .notADatabase: true
        case .busy, .full, .schemaTooNew, .other: false
        }
    }

    /// The fault is the database's, not one row's: every write would meet it alike (a lock held
    /// elsewhere, a full disk, a file that refuses writes or broke). Only `other` (a constraint,
    /// a row too big, ...) may be one write's alone.
    public var isDatabaseWide: Bool {
        switch kind {
        case .busy, .readOnly, .cannotOpen, .ioError, .full, .corrupt, .notADatabase, .schemaTooNew: true
        case .other: false
        }
    }

    /// A few words naming the fault, the same for every occurrence (a log groups lines by it).
    public var cause: String {
        switch kind {
        case .busy: "busy"
        case .readOnly: "read-only"
        case .cannotOpen: "cannot open"
        case .ioError: "I/O error"
        case .full: "disk full"
        case .corrupt: "corrupt"
        case .notADatabase: "not a database"
        case .schemaTooNew: "schema too new"
        case .other(let code): "code \(code)"
        }
    }

    /// What the operator should do. `pageCeiling`: `LIVEACTIVITY_SQLITE_MAX_PAGES`, if set.
    public func advice(pageCeiling: Int?) -> String {
        switch kind {
        case .busy: "another process held the write lock past LIVEACTIVITY_BUSY_TIMEOUT_MS"
        case .readOnly:
            "check the owner and permissions of the file, its -wal and -shm, and its folder (the responder's and the sweep's "
                + "users share them through their group: files 0660, folder 2770), and that the filesystem is mounted read-write"
        case .cannotOpen: "check that the folder exists and this program's user may write it"
        case .ioError: "check the disk and the filesystem"
        case .full:
            "free space on its filesystem"
                + (pageCeiling.map { " or the LIVEACTIVITY_SQLITE_MAX_PAGES ceiling of \($0) pages" } ?? "")
        case .corrupt: "restore the file from a backup, or move it aside to start an empty one"
        case .notADatabase: "LIVEACTIVITY_DB must name an SQLite database file"
        case .schemaTooNew: "run the newer build that wrote it, or restore a backup this build made"
        case .other: "see SQLite's message"
        }
    }
}
