import LiveActivityDomain

extension Configuration {
    /// The SQLite options these settings ask for.
    public var sqliteOptions: DatabaseOptions {
        var options = DatabaseOptions()
        options.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        options.synchronous = sqliteSynchronous
        options.maxPageCount = sqliteMaxPages
        return options
    }
}
