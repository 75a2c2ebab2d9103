import CSQLite
import LiveActivityStore
import SQLiteClient

/// SQLite's failures as the backend-neutral `StoreFault` (https://sqlite.org/rescode.html), with
/// what the operator should do about each.
extension StoreFault {
    init(sqlite error: SQLiteError, path: String, pageCeiling: Int?) {
        let kind: Kind
        let advice: String
        switch error.primaryCode {
        case SQLITE_BUSY, SQLITE_LOCKED:
            kind = .busy
            advice = "another process held the write lock past LIVEACTIVITY_BUSY_TIMEOUT_MS"
        case SQLITE_READONLY:
            kind = .readOnly
            advice =
                "check the owner and permissions of the file, its -wal and -shm, and its folder (the responder's and the sweep's "
                + "users share them through their group: files 0660, folder 2770), and that the filesystem is mounted read-write"
        case SQLITE_CANTOPEN:
            kind = .cannotOpen
            advice = "check that the folder exists and this program's user may write it"
        case SQLITE_IOERR:
            kind = .ioError
            advice = "check the disk and the filesystem"
        case SQLITE_FULL:
            kind = .full
            advice =
                "free space on its filesystem"
                + (pageCeiling.map { " or the LIVEACTIVITY_SQLITE_MAX_PAGES ceiling of \($0) pages" } ?? "")
        case SQLITE_CORRUPT:
            kind = .corrupt
            advice = "restore the file from a backup, or move it aside to start an empty one"
        case SQLITE_NOTADB:
            kind = .notADatabase
            advice = "LIVEACTIVITY_DB must name an SQLite database file"
        default:
            kind = .other(code: String(error.primaryCode))
            advice = "see SQLite's message"
        }
        self.init(kind, message: "\(error.message) (code \(error.code))", advice: advice)
    }
}
