import LiveActivityDomain
import SQLiteClient

/// The stand-in's own SQLite file: what it received (so a person or a test can see deliveries),
/// the answers scripted per token for tests, and the provider token in use (for the refresh rule).
public final class StandInState {
    package let connection: SQLiteConnection

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
            content_type TEXT,
            environment TEXT
        );
        CREATE INDEX IF NOT EXISTS received_by_token ON received(device_token);
        CREATE TABLE IF NOT EXISTS scripted (
            id INTEGER PRIMARY KEY,
            device_token TEXT NOT NULL,
            status INTEGER NOT NULL,
            reason TEXT,
            timestamp_ms INTEGER,
            delay_ms INTEGER NOT NULL DEFAULT 0,
            environment TEXT
        );
        CREATE INDEX IF NOT EXISTS scripted_by_token ON scripted(device_token, id);
        CREATE TABLE IF NOT EXISTS provider_token (
            key_id TEXT PRIMARY KEY,
            issued_at INTEGER NOT NULL,
            first_seen_at INTEGER NOT NULL,
            renewal_allowed INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE IF NOT EXISTS connection_binding (
            connection TEXT PRIMARY KEY,
            team_id TEXT NOT NULL,
            key_id TEXT NOT NULL
        );
        """

    public init(path: String) throws {
        var options = SQLiteOptions()
        options.busyTimeoutMilliseconds = 10_000
        connection = try SQLiteConnection(path: path, options: options)
        try connection.execute(Self.schema)
        try addMissingColumns()
    }

    /// A file made by an older stand-in gets the columns added since: how pushes arrived, and
    /// the environment of received pushes and scripted answers.
    private func addMissingColumns() throws {
        try connection.transaction {
            for (table, column) in [
                ("received", "connection"), ("received", "content_type"), ("received", "environment"),
                ("scripted", "environment"),
            ] {
                let has = try connection.statement("SELECT count(*) FROM pragma_table_info(?) WHERE name = ?")
                    .scalarInt([.text(table), .text(column)])
                if has == 0 { try connection.execute("ALTER TABLE \(table) ADD COLUMN \(column) TEXT") }
            }
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

    // MARK: - A connection's team and key

    /// The team and key a connection is bound to: those of its first push with a valid token
    /// (APNS.md section 8: APNs binds them there), recorded by that push.
    func binding(connection name: String, teamID: String, keyID: String) throws -> (teamID: String, keyID: String) {
        try connection.transaction {
            try connection.statement(
                "INSERT INTO connection_binding (connection, team_id, key_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"
            ).run([.text(name), .text(teamID), .text(keyID)])
            return try connection.statement("SELECT team_id, key_id FROM connection_binding WHERE connection = ?")
                .firstRow([.text(name)]) { row in (teamID: row.text(0) ?? "", keyID: row.text(1) ?? "") } ?? (teamID, keyID)
        }
    }

    /// Forgets every connection's binding: a stand-in that starts anew serves an nginx whose
    /// connection numbers may start anew.
    public func forgetConnections() throws {
        try connection.execute("DELETE FROM connection_binding")
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
        /// Which APNs host the push named.
        public var environment: APNsEnvironment = .production
    }

    /// Records `received`, and how it arrived: nginx's connection number and its Content-Type.
    func record(_ received: Received, connection number: String?, contentType: String?) throws {
        try connection.statement(
            """
            INSERT INTO received (received_at, device_token, method, protocol, authorization, topic, push_type,
                priority, expiration, apns_id, payload, status, reason, connection, content_type, environment)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        ).run([
            .integer(received.receivedAt), .text(received.deviceToken), .text(received.method), .text(received.serverProtocol),
            received.authorization.map { .text($0) } ?? .null, received.topic.map { .text($0) } ?? .null,
            received.pushType.map { .text($0) } ?? .null, received.priority.map { .text($0) } ?? .null,
            received.expiration.map { .text($0) } ?? .null, .text(received.apnsID), .text(received.payload),
            .integer(Int64(received.status)), received.reason.map { .text($0) } ?? .null,
            number.map { .text($0) } ?? .null, contentType.map { .text($0) } ?? .null, .text(received.environment.rawValue),
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
    /// Each push received, as (device token, nginx's connection number) in arrival order: which
    /// client connection it came on tells which sweep sent it when several sweeps push at once.
    public func receivedConnections() throws -> [(token: String, connection: String)] {
        try connection.statement("SELECT device_token, coalesce(connection, '') FROM received ORDER BY id").rows { row in
            (row.text(0) ?? "", row.text(1) ?? "")
        }
    }

    public func received(token: String? = nil) throws -> [Received] {
        try connection.statement(
            """
            SELECT device_token, method, protocol, authorization, topic, push_type, priority, expiration, apns_id,
                   payload, status, reason, received_at, environment
            FROM received WHERE ?1 IS NULL OR device_token = ?1 ORDER BY id
            """
        ).rows([token.map { .text($0) } ?? .null]) { row in
            Received(
                deviceToken: row.text(0) ?? "", method: row.text(1) ?? "", serverProtocol: row.text(2) ?? "",
                authorization: row.text(3), topic: row.text(4), pushType: row.text(5),
                priority: row.text(6), expiration: row.text(7), apnsID: row.text(8) ?? "",
                payload: row.text(9) ?? "", status: Int(row.int(10)), reason: row.text(11),
                receivedAt: row.int(12), environment: APNsEnvironment(name: row.text(13) ?? "") ?? .production)
        }
    }
}
