/// A row as any engine reads it back, by column number from 0: the few typed reads the store's
/// decoders need (GRDB's `FetchableRecord.init(row:)`, once per value). SQLite's and PostgreSQL's
/// rows conform, so each value is decoded - and checked (`StoredValue`) - in one place, and a
/// third engine copies SQL, not Swift.
public protocol StoredRow {
    /// The column's text; nil when it is NULL.
    func text(_ column: Int32) -> String?
    /// The column's integer; 0 when it is NULL.
    func int(_ column: Int32) -> Int64
    /// The column's integer; nil when it is NULL.
    func optionalInt(_ column: Int32) -> Int64?
    /// The column's bytes; nil when it is NULL.
    func bytes(_ column: Int32) -> [UInt8]?
}

/// The columns of the push targets table each decoder reads, in its order: the same SQL text in
/// every engine (an engine adds its own expression for the attempts, which each stores its way).
public enum TargetColumns {
    /// What `DueTarget(stored:)` reads.
    public static let due =
        "registration_token, push_kind, push_token, activity_type, environment, registered_at, consecutive_failures, "
        + "next_push_at, requested_interval, last_push_at, guard_holds, app, " + CadenceColumns.list

    /// `due` with each column named through `alias` (`r.registration_token, ...`), for a
    /// statement whose FROM names the table so.
    public static func due(alias: String) -> String { aliased(due, alias) }

    /// A list of columns with each named through `alias` (`r.registration_token, ...`).
    public static func aliased(_ columns: String, _ alias: String) -> String {
        columns.split(separator: ",").map { alias + "." + $0.trimmingSpaces }.joined(separator: ", ")
    }

    /// What `PushTarget(stored:)` and `RegistrationFacts(stored:)` read; an engine appends the
    /// attempts as one bytes column (column `storedAttempts`) where a read wants them.
    public static let stored =
        "registration_token, push_kind, push_token, activity_type, environment, registered_at, expires_at, "
        + "requested_interval, next_push_at, last_push_at, push_count, consecutive_failures, last_error, app, "
        + CadenceColumns.list

    /// The column of `app` in `due` and `stored`: each decoder of a key reads it there.
    public static let dueApp: Int32 = 11
    public static let storedApp: Int32 = 13

    /// The first of the `CadenceColumns` in `due` and `stored`.
    public static let dueCadence: Int32 = 12
    public static let storedCadence: Int32 = 14

    /// The column of the attempts an engine appends to `stored`.
    public static let storedAttempts: Int32 = 18
}

extension Substring {
    fileprivate var trimmingSpaces: String { String(drop(while: { $0 == " " })) }
}
