/// How a connection opens its database: the pragmas applied on open (the SQLite engine reads
/// them from the settings).
public struct SQLiteOptions: Sendable {
    public var busyTimeoutMilliseconds: Int32 = 5000
    /// `PRAGMA synchronous`: NORMAL is durable across application crashes in WAL mode and
    /// loses at most the last transactions on power loss (https://sqlite.org/pragma.html#pragma_synchronous).
    public var synchronous: String = "NORMAL"
    public var readOnly = false
    /// `PRAGMA max_page_count`: a ceiling on the database's size in pages, past which writes
    /// fail as on a full disk (`LIVEACTIVITY_SQLITE_MAX_PAGES`). It is per connection, so
    /// every connection applies it on open. nil: SQLite's own (practically unlimited).
    public var maxPageCount: Int?
    /// `PRAGMA cache_size` in KiB, for a connection that needs more than SQLite's 2 MiB. nil: SQLite's own.
    public var cacheKibibytes: Int?
    public init() {}
}
