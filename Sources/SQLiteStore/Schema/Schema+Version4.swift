/// Schema step 3 → 4, appended to `Schema.migrations` in order (steps are named by the version
/// they make; one file each from here on).
extension Schema {
    /// 3 → 4: the cached provider token leaves the database. The web user reads and writes this
    /// database, and a token sends pushes for the whole team for an hour (SPEC 5): it now lives
    /// in a 0600 file of the sweep's user beside the database (`ProviderTokenCache`). The next
    /// sweep signs a fresh token into the file.
    static let toVersion4 = "DROP TABLE provider_tokens;"
}
