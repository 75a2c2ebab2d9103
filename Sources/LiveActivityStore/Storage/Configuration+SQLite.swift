import LiveActivityDomain

extension Configuration {
    /// The SQLite options these settings ask for.
    public var sqliteOptions: SQLiteConnection.Options {
        var options = SQLiteConnection.Options()
        options.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        options.synchronous = sqliteSynchronous
        options.maxPageCount = sqliteMaxPages
        return options
    }
}
