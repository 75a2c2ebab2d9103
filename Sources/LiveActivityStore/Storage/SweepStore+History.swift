import LiveActivityDomain
import LiveActivityFigures

/// `liveactivity-sweep history`'s read (SPEC 7): a registration found by the whole token or a
/// prefix of it through a range on the registrations' primary key (`push_token >= prefix AND
/// push_token < prefix || 'g'`: tokens are lowercase hex, and 'g' sorts after every hex digit), so
/// the answer costs the same at 100,000 registrations as at ten; its attempts from its own row.
extension SweepStore {
    /// The registration whose token starts with `prefix` (from `DeviceHistory.prefix`) and its attempts.
    public func history(_ prefix: String) throws -> DeviceHistory.Lookup {
        try DeviceHistory.lookup(prefix, in: connection)
    }
}

extension DeviceHistory {
    /// The registration whose token starts with `prefix` (from `prefix(_:)`) and its attempts.
    package static func lookup(_ prefix: String, in connection: SQLiteConnection) throws -> Lookup {
        let range: [PreparedStatement.Value] = [.text(prefix), .text(prefix + "g")]
        let tokens = try connection.statement(
            "SELECT push_token FROM registrations WHERE push_token >= ?1 AND push_token < ?2 ORDER BY push_token LIMIT 2"
        ).rows(range) { $0.text(0) ?? "" }
        guard let token = tokens.first else { return .notRegistered }
        guard tokens.count == 1 else {
            let count =
                try connection.statement(
                    "SELECT count(*) FROM registrations WHERE push_token >= ?1 AND push_token < ?2"
                ).scalarInt(range) ?? 2
            return .ambiguous(count: Int(count))
        }
        guard
            let (registration, ring) = try connection.statement(
                """
                SELECT push_token, activity_type, environment, registered_at, expires_at, next_push_at,
                       last_push_at, wakeup_count, consecutive_failures, last_error, requested_interval, attempts
                FROM registrations WHERE push_token = ?
                """
            ).firstRow([.text(token)], refusing: { (row) throws(StoredValueError) in (try Registration(row: row), row.blob(11)) })
        else { return .notRegistered }
        let attempts = AttemptRing.decode(ring ?? [], token: registration.token)
        return .found(DeviceHistory(registration: registration, attempts: attempts))
    }
}
