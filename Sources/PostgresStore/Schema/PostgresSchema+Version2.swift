/// Version 2 (hardening, issue 30):
/// - `registrations.guard_holds`, as SQLite's step 11: a row never proven is deleted at the
///   guard's third hold (SPEC 5).
/// - `provider_tokens`, keyed by the cache key (key id, team and a hash of the key): hosts or apps
///   with different keys keep a token each, where one row made them overwrite each other's and
///   sign a new one every run. The one row of version 1 is carried over; like its predecessor,
///   the table is the sweep's alone (docs/POSTGRESQL.md: the responder's role is not granted it).
extension PostgresSchema {
    static let toVersion2 = """
        ALTER TABLE registrations ADD COLUMN guard_holds bigint NOT NULL DEFAULT 0;
        CREATE TABLE provider_tokens (
            cache_key text PRIMARY KEY,
            token text NOT NULL,
            issued_at bigint NOT NULL
        );
        INSERT INTO provider_tokens (cache_key, token, issued_at) SELECT cache_key, token, issued_at FROM provider_token;
        DROP TABLE provider_token;
        """
}
