/// One device's story for `liveactivity-sweep history` (SPEC 7): its registration and its last
/// attempts, newest first. Found by the whole token or a prefix of it through a range on the
/// registrations' primary key (`push_token >= prefix AND push_token < prefix || 'g'`: tokens are
/// lowercase hex, and 'g' sorts after every hex digit), so the answer costs the same at 100,000
/// registrations as at ten.
public struct DeviceHistory: Sendable, Equatable {
    public var registration: Registration
    /// Newest first.
    public var attempts: [PushAttempt]

    /// The fewest hex digits a prefix may have: fewer would match too many devices to be useful.
    public static let shortestPrefix = 8

    /// What a lookup found.
    public enum Lookup: Sendable, Equatable {
        case found(DeviceHistory)
        /// More than one registration starts with the prefix: how many.
        case ambiguous(count: Int)
        case notRegistered
    }

    /// A token or prefix as the operator types it: hex digits (either case), at least
    /// `shortestPrefix` and at most a token's length; nil when it is not one.
    public static func prefix(_ text: String) -> String? {
        let lower = text.lowercased()
        guard lower.count >= shortestPrefix, lower.count <= PushToken.maximumLength,
            lower.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        return lower
    }

    /// The registration whose token starts with `prefix` (from `prefix(_:)`) and its attempts.
    public static func lookup(_ prefix: String, in connection: SQLiteConnection) throws(SQLiteError) -> Lookup {
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
            ).firstRow([.text(token)], { row in (Registration(row: row), row.blob(11)) })
        else { return .notRegistered }
        let attempts = AttemptRing.decode(ring ?? [], token: registration.token)
        return .found(DeviceHistory(registration: registration, attempts: attempts))
    }
}
