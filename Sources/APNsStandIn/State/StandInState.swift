import LiveActivityCore

/// The stand-in's own SQLite file: what it received (so a person or a test can see deliveries),
/// the answers scripted per token for tests, and the provider token in use (for the refresh rule).
public final class StandInState {
    public let connection: SQLiteConnection

    static let schema = """
        CREATE TABLE IF NOT EXISTS received (
            id INTEGER PRIMARY KEY,
            received_at INTEGER NOT NULL,
            device_token TEXT NOT NULL,
            method TEXT NOT NULL,
            protocol TEXT NOT NULL,
            authorization TEXT,
            topic TEXT,
            push_type TEXT,
            priority TEXT,
            expiration TEXT,
            apns_id TEXT NOT NULL,
            payload TEXT NOT NULL,
            status INTEGER NOT NULL,
            reason TEXT,
            connection TEXT,
            content_type TEXT
        );
        CREATE INDEX IF NOT EXISTS received_by_token ON received(device_token);
        CREATE TABLE IF NOT EXISTS scripted (
            id INTEGER PRIMARY KEY,
            device_token TEXT NOT NULL,
            status INTEGER NOT NULL,
            reason TEXT,
            timestamp_ms INTEGER,
            delay_ms INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX IF NOT EXISTS scripted_by_token ON scripted(device_token, id);
        CREATE TABLE IF NOT EXISTS provider_token (
            key_id TEXT PRIMARY KEY,
            issued_at INTEGER NOT NULL,
            first_seen_at INTEGER NOT NULL,
            renewal_allowed INTEGER NOT NULL DEFAULT 0
        );
        """

    public init(path: String) throws {
        var options = SQLiteConnection.Options()
        options.busyTimeoutMilliseconds = 10_000
        connection = try SQLiteConnection(path: path, options: options)
        try connection.execute(Self.schema)
        try addTransportColumns()
    }

    /// A file made before `received` recorded how pushes arrived gets the two columns.
    private func addTransportColumns() throws {
        try connection.transaction {
            let has = try connection.statement("SELECT count(*) FROM pragma_table_info('received') WHERE name = 'connection'")
                .scalarInt()
            if has == 0 {
                try connection.execute(
                    "ALTER TABLE received ADD COLUMN connection TEXT; ALTER TABLE received ADD COLUMN content_type TEXT")
            }
        }
    }

    // MARK: - Scripted answers (tests)

    /// Queues `count` answers of `status`/`reason` for `token` (`*` for every token without its own
    /// script); a `delayMilliseconds` answer is held that long first, to test timeouts.
    public func script(
        token: String, status: Int, reason: String?, timestamp: Int64? = nil, delayMilliseconds: Int = 0, count: Int = 1
    ) throws {
        try connection.transaction {
            for _ in 0..<count {
                try connection.statement(
                    "INSERT INTO scripted (device_token, status, reason, timestamp_ms, delay_ms) VALUES (?, ?, ?, ?, ?)"
                ).run([
                    .text(token), .integer(Int64(status)), reason.map { .text($0) } ?? .null,
                    timestamp.map { .integer($0) } ?? .null, .integer(Int64(delayMilliseconds)),
                ])
            }
        }
    }

    struct Scripted {
        var status: Int
        var reason: String?
        var timestamp: Int64?
        var delayMilliseconds: Int
    }

    /// Takes the next scripted answer for `token`, its own before the `*` ones.
    func takeScripted(token: String) throws -> Scripted? {
        try connection.transaction {
            for key in [token, "*"] {
                let next = try connection.statement(
                    "SELECT id, status, reason, timestamp_ms, delay_ms FROM scripted WHERE device_token = ? ORDER BY id LIMIT 1"
                ).firstRow([.text(key)]) { row in
                    (
                        id: row.int(0),
                        answer: Scripted(
                            status: Int(row.int(1)), reason: row.text(2), timestamp: row.optionalInt(3),
                            delayMilliseconds: Int(row.int(4)))
                    )
                }
                guard let (id, answer) = next else { continue }
                try connection.statement("DELETE FROM scripted WHERE id = ?").run([.integer(id)])
                return answer
            }
            return nil
        }
    }

    // MARK: - Provider token refresh rule

    /// Applies APNs's rule that a provider may not switch tokens more often than every 20 minutes:
    /// returns false when `issuedAt` replaces the current token too soon. A token the stand-in
    /// answered ExpiredProviderToken for may always be replaced.
    func acceptTokenChange(keyID: String, issuedAt: Int64, now: Int64) throws -> Bool {
        try connection.transaction {
            let known = try connection.statement(
                "SELECT issued_at, first_seen_at, renewal_allowed FROM provider_token WHERE key_id = ?"
            ).firstRow([.text(keyID)]) { row in (current: row.int(0), firstSeen: row.int(1), allowed: row.int(2) != 0) }
            if let (current, firstSeen, allowed) = known {
                if issuedAt == current { return true }
                if issuedAt < current { return true }  // an older token still in flight; judged by age alone
                if !allowed && now - firstSeen < 20 * 60_000 { return false }
            }
            try connection.statement(
                "INSERT OR REPLACE INTO provider_token (key_id, issued_at, first_seen_at, renewal_allowed) VALUES (?, ?, ?, 0)"
            ).run([.text(keyID), .integer(issuedAt), .integer(now)])
            return true
        }
    }

    /// After answering ExpiredProviderToken, the provider must be allowed a new token at once.
    func allowRenewal(keyID: String) throws {
        try connection.statement("UPDATE provider_token SET renewal_allowed = 1 WHERE key_id = ?").run([.text(keyID)])
    }

    // MARK: - Record

    /// One push as the stand-in received it.
    public struct Received: Sendable, Equatable {
        public var deviceToken: String
        public var method: String
        public var serverProtocol: String
        public var authorization: String?
        public var topic: String?
        public var pushType: String?
        public var priority: String?
        public var expiration: String?
        public var apnsID: String
        public var payload: String
        public var status: Int
        public var reason: String?
        public var receivedAt: Int64
    }

    /// Records `received`, and how it arrived: nginx's connection number and its Content-Type.
    func record(_ received: Received, connection number: String?, contentType: String?) throws {
        try connection.statement(
            """
            INSERT INTO received (received_at, device_token, method, protocol, authorization, topic, push_type,
                priority, expiration, apns_id, payload, status, reason, connection, content_type)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        ).run([
            .integer(received.receivedAt), .text(received.deviceToken), .text(received.method), .text(received.serverProtocol),
            received.authorization.map { .text($0) } ?? .null, received.topic.map { .text($0) } ?? .null,
            received.pushType.map { .text($0) } ?? .null, received.priority.map { .text($0) } ?? .null,
            received.expiration.map { .text($0) } ?? .null, .text(received.apnsID), .text(received.payload),
            .integer(Int64(received.status)), received.reason.map { .text($0) } ?? .null,
            number.map { .text($0) } ?? .null, contentType.map { .text($0) } ?? .null,
        ])
    }

    /// How one push arrived: nginx's number for the client connection, and the Content-Type.
    public struct Arrival: Sendable, Equatable {
        public var deviceToken: String
        public var connection: String?
        public var contentType: String?
    }

    /// How every push arrived, oldest first.
    public func arrivals() throws -> [Arrival] {
        try connection.statement("SELECT device_token, connection, content_type FROM received ORDER BY id").rows { row in
            Arrival(deviceToken: row.text(0) ?? "", connection: row.text(1), contentType: row.text(2))
        }
    }

    /// Everything received, oldest first (optionally for one token).
    public func received(token: String? = nil) throws -> [Received] {
        try connection.statement(
            """
            SELECT device_token, method, protocol, authorization, topic, push_type, priority, expiration, apns_id,
                   payload, status, reason, received_at
            FROM received WHERE ?1 IS NULL OR device_token = ?1 ORDER BY id
            """
        ).rows([token.map { .text($0) } ?? .null]) { row in
            Received(
                deviceToken: row.text(0) ?? "", method: row.text(1) ?? "", serverProtocol: row.text(2) ?? "",
                authorization: row.text(3), topic: row.text(4), pushType: row.text(5),
                priority: row.text(6), expiration: row.text(7), apnsID: row.text(8) ?? "",
                payload: row.text(9) ?? "", status: Int(row.int(10)), reason: row.text(11),
                receivedAt: row.int(12))
        }
    }
}
