/// A database failure, whatever the engine: what it is, whether it passes on its own, whether the
/// connection must be opened anew, and what the operator should do. Each engine classifies its
/// library's errors into one (SQLite's result codes, PostgreSQL's SQLSTATEs and libpq's connection
/// failures), so the API, the sweep and the commands decide what a fault costs without knowing
/// the engine: the API answers 503, the sweep and the commands exit non-zero with one line.
public struct StoreFault: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Another connection held a lock past the wait allowed (SQLite's busy timeout,
        /// PostgreSQL's lock, deadlock or serialization failure, too many connections).
        case busy
        /// The database refuses writes: a read-only file, folder or filesystem; a PostgreSQL
        /// standby (after a failover, until the connection finds the new primary).
        case readOnly
        /// The file, its folder or the database is missing or not ours to open.
        case cannotOpen
        /// The disk or the filesystem failed a read or a write.
        case ioError
        /// No room left: the disk, or SQLite's page ceiling.
        case full
        /// The data is damaged.
        case corrupt
        /// `LIVEACTIVITY_DB` names something that is not a database of this kind.
        case notADatabase
        /// A newer build wrote the schema (`SchemaTooNewError`).
        case tooNew
        /// The database server cannot be reached: refused, down, restarting, cut off, or it
        /// stopped answering within the wait allowed.
        case unreachable
        /// The server refused the role or its password.
        case authentication
        /// The role may not do this: a grant is missing.
        case permissionDenied
        /// The server has no database (or role) of the name `LIVEACTIVITY_DB` gives.
        case noSuchDatabase
        /// Anything else (a constraint, a statement this engine refused): `code` names it.
        case other(code: String)
    }

    public let kind: Kind
    /// What the library said (the engine's words, never a bound value or a password): for the
    /// operator's log, never for a client.
    public let message: String
    /// What the operator should do, in the engine's terms (a setting, a file, a grant).
    public let advice: String

    public init(_ kind: Kind, message: String, advice: String) {
        self.kind = kind
        self.message = message
        self.advice = advice
    }

    /// The fault goes away without a change to the data (a lock is released, the server comes
    /// back, space or permission is given back), so a client may retry later.
    public var passes: Bool {
        switch kind {
        case .busy, .readOnly, .cannotOpen, .ioError, .full, .unreachable, .authentication, .permissionDenied: true
        case .corrupt, .notADatabase, .tooNew, .noSuchDatabase, .other: false
        }
    }

    /// The connection cannot be trusted any more: its file vanished or broke, the server went
    /// away or is a standby now; the next use opens one afresh.
    public var needsReopen: Bool {
        switch kind {
        case .readOnly, .cannotOpen, .ioError, .corrupt, .notADatabase, .unreachable, .authentication, .noSuchDatabase: true
        case .busy, .full, .tooNew, .permissionDenied, .other: false
        }
    }

    /// The fault is the database's, not one row's: every write would meet it alike. Only `other`
    /// (a constraint, a row too big, ...) may be one write's alone.
    public var isDatabaseWide: Bool {
        if case .other = kind { return false }
        return true
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
        case .tooNew: "schema too new"
        case .unreachable: "unreachable"
        case .authentication: "authentication failed"
        case .permissionDenied: "permission denied"
        case .noSuchDatabase: "no such database"
        case .other(let code): "code \(code)"
        }
    }

    public var description: String { "\(cause): \(message)" }

    /// The fault says a setting is wrong rather than the data (`LIVEACTIVITY_DB` names a server
    /// that cannot be reached, a role or password it refuses, a database that is not there, a
    /// grant missing) or that a newer build wrote the schema: the commands exit 2 for it, as for
    /// any setting, and 3 for a database that is unusable as it is.
    public var isSetting: Bool {
        switch kind {
        case .unreachable, .authentication, .permissionDenied, .noSuchDatabase, .tooNew: true
        default: false
        }
    }

    /// The fault `error` is, if it is one: a `StoreFault`, or a schema too new.
    public static func of(_ error: any Error) -> StoreFault? {
        switch error {
        case let fault as StoreFault: fault
        case let tooNew as SchemaTooNewError:
            StoreFault(
                .tooNew, message: tooNew.description,
                advice: "run the newer build that wrote it, or restore a backup this build made")
        default: nil
        }
    }
}
